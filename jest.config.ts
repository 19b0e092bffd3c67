/** @jest-config-loader-options {"transpileOnly": true} */
import type { Config } from 'jest';

const transform: Config['transform'] = { '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }] };

const config: Config = {
  // One PostgreSQL cluster for the whole run (unless a URL is given); every test file makes
  // its own database in it, so files run in parallel without sharing metadata.
  globalSetup: '<rootDir>/conformance/harness/globalSetup.ts',
  globalTeardown: '<rootDir>/conformance/harness/globalTeardown.ts',
  reporters: ['default', '<rootDir>/conformance/harness/reporter.js'],
  testTimeout: 30_000,
  projects: [
    {
      displayName: 'unit',
      transform,
      testEnvironment: 'node',
      testMatch: ['<rootDir>/spec/**/*.test.ts', '<rootDir>/reference/**/*.test.ts', '<rootDir>/conformance/harness/**/*.test.ts', '<rootDir>/conformance/cli/**/*.test.ts'],
    },
    {
      displayName: 'conformance',
      transform,
      testEnvironment: 'node',
      testMatch: ['<rootDir>/conformance/cases/**/*.test.ts'],
    },
  ],
};

export default config;
