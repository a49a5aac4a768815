// Mocha runs the TypeScript sources through tsx. Files run in parallel worker processes; each
// test file opens its own database, so files never share state.
// `npx mocha test/unit/x.test.ts` runs only the files named; plain `mocha` (npm test) runs them all.
const filesNamed = process.argv.slice(2).some((arg) => /\.test\.ts$/.test(arg));

module.exports = {
  require: ['tsx/cjs', 'test/support/openapi-conformance.hooks.ts'],
  extension: ['ts'],
  spec: filesNamed ? [] : ['test/**/*.test.ts'],
  // The reliability suite is its own run: npm run test:reliability (test/reliability/.mocharc.cjs).
  ignore: ['test/reliability/**'],
  parallel: true,
  jobs: 2,
  timeout: 20000,
  reporter: 'spec',
  exit: true,
};
