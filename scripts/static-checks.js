#!/usr/bin/env node
// `npm run check`: the type check, the linter, the format check and the layer check at once (each is mostly one
// process on one core); every one's output is shown, and the exit code is 1 when any failed.
const { spawn } = require('node:child_process');

// Each keeps what it found in node_modules/.cache/engine, so that a second run looks again only at
// what changed (a fresh clone, as in CI, checks everything).
const CACHE = `${__dirname}/../node_modules/.cache/engine`;
const bin = (command) => require.resolve(`.bin/${command}`, { paths: [`${__dirname}/../node_modules`] });
// [name, executable, arguments, whether it prints its own ok/FAIL lines]
const CHECKS = [
  // The type check and the linter share one TypeScript program (types-and-lint.js).
  ['types and lint', process.execPath, [`${__dirname}/types-and-lint.js`], true],
  ['format', bin('prettier'), ['--check', '**/*.ts', '--cache', '--cache-strategy', 'content', '--cache-location', `${CACHE}/prettier`]],
  // One-way layers and no cycles (.dependency-cruiser.cjs).
  [
    'layers',
    bin('depcruise'),
    [
      'reference/src',
      'reference/test-support',
      'spec',
      'conformance/harness',
      'conformance/cli',
      'conformance/diff',
      '--output-type',
      'err',
      '--cache',
      `${CACHE}/depcruise`,
    ],
  ],
];

const run = ([name, command, args, reportsItself]) =>
  new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolve({ name, code, output, reportsItself, seconds: (Date.now() - started) / 1000 }));
  });

Promise.all(CHECKS.map(run)).then((results) => {
  for (const r of results) {
    const lines = r.output.split('\n').filter((l) => l.trim() !== '' && !/^npm warn/.test(l));
    if (r.reportsItself && (r.code === 0 || /^(ok  |FAIL) /m.test(r.output))) {
      process.stdout.write(r.code === 0 ? `${lines.filter((l) => /^ok  /.test(l)).join('\n')}\n` : `${lines.join('\n')}\n`);
      continue;
    }
    process.stdout.write(`${r.code === 0 ? 'ok  ' : 'FAIL'} ${r.name} (${r.seconds.toFixed(1)} s)\n`);
    if (r.code !== 0) process.stdout.write(`${lines.join('\n')}\n`);
  }
  process.exit(results.every((r) => r.code === 0) ? 0 : 1);
});
