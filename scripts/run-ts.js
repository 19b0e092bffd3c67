#!/usr/bin/env node
// Runs a TypeScript file of the project (compiled on load by SWC): `node scripts/run-ts.js bench/index.ts`.
require('./register-ts.js').register();
require(require('node:path').resolve(process.argv[2]));
