#!/usr/bin/env node
// Runs the reference server from its TypeScript sources (compiled on load by SWC).
process.env.TS_NODE_TRANSPILE_ONLY = 'true';
process.env.TS_NODE_SWC = 'true';
require('ts-node').register({ swc: true, transpileOnly: true, project: require('node:path').join(__dirname, '..', 'tsconfig.json') });
require('../reference/src/main.ts');
