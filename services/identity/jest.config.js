/** Jest on @swc/jest (fast), ESM-only deps transformed. */
const esmOnly = [
  'cookie',
  '@fastify/cookie',
  'openid-client',
  'oauth4webapi',
  'jose',
  'oidc-provider',
  'typebox',
  'better-auth',
  '@better-auth',
  '@better-fetch',
  'better-call',
  'nanostores',
  'rou3',
  'defu',
  'uncrypto',
  'zod',
  'kysely',
  '@noble',
  '@scure',
  'content-disposition',
];
module.exports = {
  testEnvironment: 'node',
  // Jest 30's default 'soft' cleanup turns the properties of objects left on globalThis into accessors whose setter
  // calls itself: the better-auth client's nanostores (globalThis.nanostoresGlobal.epoch), still updating a store
  // after its test file ended, then threw "Maximum call stack size exceeded" in that jest worker.
  testEnvironmentOptions: { globalsCleanup: 'off' },
  rootDir: '.',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // The fault suite (real PostgreSQL and Redis of its own, restarted, paused and slowed) runs on its own, one file
  // at a time: `npm run test:faults` (jest.faults.config.js). `make test` runs both.
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/fault/'],
  transform: {
    '^.+\\.(t|j|mj|cj)s$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript' },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${esmOnly.join('|')})/)`],
  globalSetup: '<rootDir>/test/setup/global-setup.ts',
  globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
  reporters: ['default', '<rootDir>/test/setup/summary-reporter.js'],
  maxWorkers: 2,
  testTimeout: 30000,
};
