#!/usr/bin/env node
// Runs the conformance suite against a given engine (compiled on load by SWC).
require('ts-node').register({ swc: true, transpileOnly: true, project: require('node:path').join(__dirname, '..', 'tsconfig.json') });
require('../conformance/cli/main.ts');
