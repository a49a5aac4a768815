// The reliability suite (`npm run test:reliability`, docs/reliability.md): its own mocha run,
// outside `npm test`'s glob. `npm run test:reliability -- test/reliability/x.test.ts` runs one file.
const filesNamed = process.argv.slice(2).some((arg) => /\.test\.ts$/.test(arg));

module.exports = {
  require: ['tsx/cjs', 'test/support/openapi-conformance.hooks.ts'],
  extension: ['ts'],
  spec: filesNamed ? [] : ['test/reliability/**/*.test.ts'],
  parallel: true,
  jobs: 2,
  timeout: 120000,
  reporter: 'spec',
  exit: true,
};
