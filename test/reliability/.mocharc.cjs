// The reliability suite (`npm run test:reliability`, docs/reliability.md): its own mocha run,
// outside `npm test`'s glob. `npm run test:reliability -- test/reliability/x.test.ts` runs one file.
const filesNamed = process.argv.slice(2).some((arg) => /\.test\.ts$/.test(arg));

module.exports = {
  require: ['tsx/cjs', 'test/support/openapi-conformance.hooks.ts'],
  extension: ['ts'],
  spec: filesNamed ? [] : ['test/reliability/**/*.test.ts'],
  // One file at a time (each in a worker process of its own): the login-flood properties time
  // answers, and a second file's fuzzing on the same two cores made those timings the machine's.
  parallel: true,
  jobs: 1,
  timeout: 120000,
  reporter: 'spec',
  exit: true,
};
