// CommonJS as node runs it: the module wrapper, require with package
// exports/imports, JSON, cycles, errors with node's codes, and interop
// with ES modules. The modules live in fixtures/commonjs.
require('./fixtures/commonjs/main.js');
