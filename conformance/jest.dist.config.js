// The conformance cases of an installed package, compiled to dist/ by `npm run build`; the
// source checkout runs them from TypeScript through the root jest.config.ts instead.
const { join } = require('node:path');
const { timeScale } = require('../dist/conformance/harness/wait.js');

module.exports = {
  rootDir: join(__dirname, '..', 'dist'),
  globalSetup: '<rootDir>/conformance/harness/globalSetup.js',
  globalTeardown: '<rootDir>/conformance/harness/globalTeardown.js',
  testEnvironment: 'node',
  // Stretched on a loaded machine, as the cases' own waits are (harness/wait.ts).
  testTimeout: Math.round(30_000 * timeScale()),
  transform: {},
  testMatch: ['<rootDir>/conformance/cases/**/*.test.js'],
  // The package itself lives in node_modules, which jest leaves out by default.
  testPathIgnorePatterns: [],
  haste: { retainAllFiles: true },
};
