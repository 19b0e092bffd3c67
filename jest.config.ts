/** @jest-config-loader-options {"transpileOnly": true} */
import { availableParallelism } from 'node:os';
import type { Config } from 'jest';
import { timeScale } from './conformance/harness/wait';

// Loaded first in every test file: libraries in their production mode, as the server runs them.
const setupFiles = ['<rootDir>/conformance/harness/productionMode.ts'];

const transform: Config['transform'] = {
  '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
};

// Mutation testing copies the project into .stryker-tmp, and `npm run build` compiles it into dist/
// (with its own package.json): neither copy is this project's tests or modules.
const ignored = {
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/.stryker-tmp/', '<rootDir>/dist/'],
  modulePathIgnorePatterns: ['<rootDir>/.stryker-tmp/', '<rootDir>/dist/'],
};

// ENGINE_JEST_ONLY (comma-separated paths): run only these test files (mutation testing of one
// module runs the tests that exercise it, not the whole suite for every mutant).
const only = process.env.ENGINE_JEST_ONLY?.split(',').filter(Boolean);
const match = (patterns: string[], cases: boolean) => {
  if (!only) return patterns;
  const mine = only.filter((path) => path.startsWith('conformance/cases/') === cases).map((path) => `<rootDir>/${path}`);
  // An empty list would mean jest's defaults: a pattern that matches nothing instead.
  return mine.length ? mine : ['<rootDir>/no-such-test-file'];
};

// The reliability tests drive real server and PostgreSQL processes through crashes and restarts
// for minutes: `npm run test:reliability` (and CI) runs them, `npm test` does not.
const reliability = process.env.ENGINE_TEST_RELIABILITY === '1';
const RELIABILITY_TESTS = '<rootDir>/reference/**/*.reliability.test.ts';

const config: Config = {
  // One PostgreSQL cluster for the whole run (unless a URL is given); every test file makes
  // its own database in it, so files run in parallel without sharing metadata.
  globalSetup: '<rootDir>/conformance/harness/globalSetup.ts',
  globalTeardown: '<rootDir>/conformance/harness/globalTeardown.ts',
  reporters: ['default', '<rootDir>/conformance/harness/reporter.js'],
  // Stretched on a loaded machine, as the cases' own waits are (conformance/harness/wait.ts).
  testTimeout: Math.round(30_000 * timeScale()),
  // Many files wait on timers, sockets and PostgreSQL: three times as many files as cores at once
  // (measured on 2 cores, `ENGINE_JEST_WORKERS=n npx jest`, runs taken in turns: 4 workers 77-83 s,
  // 6 workers 71-74 s, 8 workers 75-77 s), at most 32 (each has a server with its own connections).
  maxWorkers: Number(process.env.ENGINE_JEST_WORKERS ?? Math.min(32, Math.max(2, availableParallelism() * 3))),
  testSequencer: '<rootDir>/conformance/harness/sequencer.js',
  projects: [
    {
      displayName: 'unit',
      ...ignored,
      transform,
      setupFiles,
      testEnvironment: 'node',
      testPathIgnorePatterns: [...ignored.testPathIgnorePatterns, '\\.reliability\\.test\\.ts$'],
      testMatch: match(
        [
          '<rootDir>/spec/**/*.test.ts',
          '<rootDir>/reference/**/*.test.ts',
          '<rootDir>/conformance/harness/**/*.test.ts',
          '<rootDir>/conformance/cli/**/*.test.ts',
          '<rootDir>/conformance/diff/**/*.test.ts',
          '<rootDir>/scripts/**/*.test.ts',
        ],
        false,
      ),
    },
    {
      displayName: 'conformance',
      ...ignored,
      transform,
      setupFiles,
      testEnvironment: 'node',
      testMatch: match(['<rootDir>/conformance/cases/**/*.test.ts'], true),
    },
    ...(reliability ? [{ displayName: 'reliability', ...ignored, transform, setupFiles, testEnvironment: 'node', testMatch: [RELIABILITY_TESTS] }] : []),
  ],
};

export default config;
