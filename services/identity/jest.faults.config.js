/**
 * The fault suite (`npm run test:faults`): test/fault/, one file at a time, so that the timings it asserts (answers
 * within a deadline, recovery after a restart) are not those of a machine busy with other test files.
 */
const base = require('./jest.config');

module.exports = {
  ...base,
  roots: ['<rootDir>/test/fault'],
  testPathIgnorePatterns: ['/node_modules/'],
  maxWorkers: 1,
  testTimeout: 120000,
};
