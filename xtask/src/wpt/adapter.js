// The WPT adapter: runs before testharness.js in every engine the WPT
// runner drives (jsvm and node), so both are measured the same way.
//
// `WPT_CONFIG` (set just before this script) carries the test's title, its
// variant (`?1-1000`, read by common/subset-tests.js through `location`)
// and the IDL files idlharness tests fetch. Results are printed one line
// each, tab-separated, with JSON-encoded strings:
//   WPT-TEST   <name>                     a subtest was registered
//   WPT-RESULT <status> <name> <message>  a subtest finished
//   WPT-DONE   <status> <message>         the harness completed
'use strict';

(function () {
  const config = globalThis.WPT_CONFIG || {};
  const print = (...fields) => console.log(fields.join('\t'));
  const json = (text) => JSON.stringify(text == null ? '' : String(text));

  globalThis.self = globalThis;
  // What the WPT server's `.any.js` wrappers define for a non-window scope.
  globalThis.GLOBAL = {
    isWindow: () => false,
    isWorker: () => false,
    isShadowRealm: () => false,
  };
  if (config.title) globalThis.META_TITLE = config.title;
  globalThis.location = {
    search: config.variant || '',
    pathname: '/' + (config.path || ''),
    href: 'http://web-platform.test:8000/' + (config.path || '') + (config.variant || ''),
  };

  // idlharness asks which kind of global this is; a shell counts as a
  // window (every test here is meant for windows too).
  if (config.idl && !('Window' in globalThis)) {
    globalThis.Window = function Window() {};
  }

  // idlharness fetches `/interfaces/<name>.idl`: served from the files the
  // runner passed in.
  const idl = config.idl || {};
  const realFetch = globalThis.fetch;
  globalThis.fetch = function fetch(url, ...rest) {
    const match = /^\/interfaces\/([\w-]+)\.idl$/.exec(String(url));
    if (match) {
      const text = idl[match[1]];
      return Promise.resolve({
        ok: text !== undefined,
        status: text !== undefined ? 200 : 404,
        text: () => Promise.resolve(text === undefined ? '' : text),
      });
    }
    if (realFetch) return realFetch.call(this, url, ...rest);
    return Promise.reject(new TypeError('fetch is not available'));
  };

  // Called by the runner once testharness.js has loaded.
  globalThis.WPT_ATTACH = function () {
    const seen = new Set();
    add_test_state_callback((test) => {
      if (!seen.has(test)) {
        seen.add(test);
        print('WPT-TEST', json(test.name));
      }
    });
    add_result_callback((test) => {
      if (!seen.has(test)) {
        seen.add(test);
        print('WPT-TEST', json(test.name));
      }
      print('WPT-RESULT', test.format_status(), json(test.name), json(test.message));
    });
    add_completion_callback((tests, status) => {
      print('WPT-DONE', status.format_status(), json(status.message));
    });
  };
})();
