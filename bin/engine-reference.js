#!/usr/bin/env node
// Runs the reference server, and its commands (metadata, migrate): an installed package runs the
// JavaScript compiled into dist/; a source checkout runs its TypeScript as it is (compiled on load
// by SWC), so no build step is needed.
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
if (existsSync(join(root, 'reference', 'src', 'main.ts'))) {
  require('../scripts/register-ts.js').register();
  require('../reference/src/main.ts');
} else {
  require('../dist/reference/src/main.js');
}
