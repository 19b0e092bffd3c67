#!/usr/bin/env node
// Runs a TypeScript file of the benchmarks (compiled on load by SWC): `node bench/run.js bench/index.ts`.
require('ts-node').register({ swc: true, transpileOnly: true, project: require('node:path').join(__dirname, '..', 'tsconfig.json') });
require(require('node:path').resolve(process.argv[2]));
