/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/test', '<rootDir>/jobs'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs', ignoreDynamic: true } }],
  },
  testTimeout: 60000,
  globalSetup: '<rootDir>/test/helpers/global-setup.ts',
  // Each integration file boots its own app and database; two workers match the 2-core machines.
  maxWorkers: 2,
};
