// Mocha runs the TypeScript sources through tsx. Files run in parallel worker processes; each
// test file opens its own database, so files never share state.
module.exports = {
  require: ['tsx/cjs'],
  extension: ['ts'],
  spec: ['test/**/*.test.ts'],
  parallel: true,
  jobs: 2,
  timeout: 20000,
  reporter: 'spec',
  exit: true,
};
