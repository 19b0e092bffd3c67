#!/usr/bin/env node
// `npm test`: the static checks (scripts/static-checks.js) and jest at once. Jest spends a good part
// of its run waiting on timers, sockets and PostgreSQL; the checks run beside it at a lower priority,
// in that spare time, and take from the tests only what is left over. The checks' report comes
// after jest's; the exit code is jest's when it failed, otherwise the checks'. Arguments go to jest
// (`npm test -- conformance/cases/dml.test.ts`).
const { spawn } = require('node:child_process');
const { join } = require('node:path');

const root = join(__dirname, '..');
const started = Date.now();
const jestArgs = process.argv.slice(2);

function exited(child) {
  return new Promise((resolve) => child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}

const checks = spawn(process.execPath, [join(__dirname, 'static-checks.js'), '--low-priority'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
let report = '';
checks.stdout.on('data', (chunk) => (report += chunk));
checks.stderr.on('data', (chunk) => (report += chunk));
const jest = spawn(process.execPath, [require.resolve('jest/bin/jest', { paths: [root] }), ...jestArgs], { cwd: root, stdio: 'inherit' });

// Ctrl-C reaches both through the terminal's process group; a kill of this process alone ends both.
for (const signal of ['SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    checks.kill(signal);
    jest.kill(signal);
  });
}

Promise.all([exited(jest), exited(checks)]).then(([jestCode, checksCode]) => {
  process.stdout.write(`\nStatic checks (npm run check):\n${report}`);
  process.stdout.write(`\nnpm test: ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  process.exit(jestCode !== 0 ? jestCode : checksCode);
});
