// Shared jest preset: TypeScript sources run as native ESM (the same module system the
// services use in production), so jest must be started with --experimental-vm-modules.
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  moduleNameMapper: {
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  transform: {
    '^.+\\.ts$': [
      'ts-jest',
      { useESM: true, tsconfig: '<rootDir>/tsconfig.test.json', diagnostics: false },
    ],
  },
  testTimeout: 30000,
  // Schemas the run's helpers record (schema-ledger.mjs) must be gone when it ends.
  globalSetup: require.resolve('./schema-ledger-setup.mjs'),
  globalTeardown: require.resolve('./schema-ledger-teardown.mjs'),
};
