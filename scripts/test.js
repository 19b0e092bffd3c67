#!/usr/bin/env node
// `npm test`: jest, with its wall time printed at the end. The static checks are their own command
// (`npm run check`), run by CI beside this one (docs/decisions/044-tests-and-checks-apart.md).
// Arguments go to jest (`npm test -- conformance/cases/dml.test.ts`).
const { spawn } = require('node:child_process');
const { join } = require('node:path');

const root = join(__dirname, '..');
const started = Date.now();
const jest = spawn(process.execPath, [require.resolve('jest/bin/jest', { paths: [root] }), ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });

// Ctrl-C reaches jest through the terminal's process group; a kill of this process alone ends it too.
for (const signal of ['SIGTERM', 'SIGHUP']) process.on(signal, () => jest.kill(signal));

jest.on('close', (code, signal) => {
  process.stdout.write(`\nnpm test: ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  process.exit(code ?? (signal ? 1 : 0));
});
