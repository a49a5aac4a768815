// The dependency rule of the hexagon, checked by `npm test` (npm run lint:deps).
// process.env outside cmd/shared/config.ts is caught by test/unit/architecture.test.ts.
module.exports = {
  forbidden: [
    {
      name: 'core-is-pure',
      comment: 'internal/ imports only internal/ and (type-only) ports/: no adapter, no cmd, no framework.',
      severity: 'error',
      from: { path: '^internal/' },
      to: { pathNot: ['^internal/', '^ports/', '^node_modules/@types/'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'core-imports-ports-as-types',
      severity: 'error',
      from: { path: '^internal/' },
      to: { path: '^ports/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'core-uses-no-framework',
      severity: 'error',
      from: { path: '^(internal|ports)/' },
      to: { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown'] },
    },
    {
      name: 'ports-are-interfaces',
      comment: 'ports/ holds interfaces: it may only import types, from internal/ or ports/.',
      severity: 'error',
      from: { path: '^ports/' },
      to: { dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'adapters-never-import-cmd',
      severity: 'error',
      from: { path: '^adapters/' },
      to: { path: '^cmd/' },
    },
    {
      name: 'http-does-not-reach-persistence-or-bullmq',
      severity: 'error',
      from: { path: '^adapters/http/' },
      to: { path: '^adapters/(persistence|queue/bullmq)/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(dist|test|bench)/' },
  },
};
