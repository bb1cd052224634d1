/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/test', '<rootDir>/jobs'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs', ignoreDynamic: true } },
    ],
  },
  // The typed client's examples import the package by name: its source here (tsconfig.json "paths" alike).
  moduleNameMapper: { '^@energy-cost-api/client$': '<rootDir>/clients/typescript/src/index.ts' },
  testTimeout: 60000,
  globalSetup: '<rootDir>/test/helpers/global-setup.ts',
  // Each integration file boots its own app and database; two workers match the 2-core machines.
  maxWorkers: 2,
};
