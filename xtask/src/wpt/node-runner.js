// Runs one WPT test on node the way the WPT runner runs it on jsvm:
//   node --expose-gc node-runner.js CONFIG_JSON STEP...
// where each STEP is a script path, evaluated as its own classic script in
// the global scope, or `@attach`, which calls the adapter's WPT_ATTACH()
// once testharness.js has loaded. A script that throws, an uncaught
// exception and an unhandled rejection are reported as WPT-ERROR lines (the
// test goes on, as in a browser).
'use strict';

const fs = require('fs');
const vm = require('vm');

const [config, ...steps] = process.argv.slice(2);
globalThis.WPT_CONFIG = JSON.parse(config);

const report = (kind, error) => {
  const message = error && error.stack ? String(error.stack).split('\n')[0] : String(error);
  console.log('WPT-ERROR\t' + JSON.stringify(kind + ': ' + message));
};
process.on('uncaughtException', (e) => report('uncaught exception', e));
process.on('unhandledRejection', (e) => report('unhandled rejection', e));

for (const step of steps) {
  if (step === '@attach') {
    globalThis.WPT_ATTACH();
    continue;
  }
  let source;
  try {
    source = fs.readFileSync(step, 'utf8');
  } catch (e) {
    report('missing script ' + step, e);
    continue;
  }
  try {
    vm.runInThisContext(source, { filename: step });
  } catch (e) {
    report('script ' + step, e);
  }
}
