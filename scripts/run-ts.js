#!/usr/bin/env node
// Runs a TypeScript file of the project (compiled on load by SWC): `node scripts/run-ts.js bench/index.ts`.
require('ts-node').register({ swc: true, transpileOnly: true, project: require('node:path').join(__dirname, '..', 'tsconfig.json') });
require(require('node:path').resolve(process.argv[2]));
