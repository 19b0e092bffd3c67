#!/usr/bin/env node
// Runs the conformance suite against a given engine: an installed package runs the JavaScript
// compiled into dist/; a source checkout runs its TypeScript (compiled on load by SWC).
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
if (existsSync(join(root, 'conformance', 'cli', 'main.ts'))) {
  require('../scripts/register-ts.js').register();
  require('../conformance/cli/main.ts');
} else {
  require('../dist/conformance/cli/main.js');
}
