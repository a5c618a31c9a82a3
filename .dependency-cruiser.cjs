/**
 * Import boundaries (CONTRIBUTING.md, docs/architecture.md), checked by `npm run deps` in `make lint`: any
 * violation fails.
 */
const SRC = '^services/identity/src/';
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'No import circles, type imports included: a feature\'s deps.ts says what it needs, its routes\' bag lives in web.ts, and no file imports its own feature\'s index.ts.',
      from: { path: '^services/identity/src' },
      to: { circular: true },
    },
    {
      name: 'feature-not-composition-root',
      severity: 'error',
      comment: 'A feature states what it needs (its deps) and never reaches into the composition root.',
      from: { path: `${SRC}(features|http|infra|shared|db|store|mail|crypto|config|errors|outbox|access)/` },
      to: { path: `${SRC}(context|wiring|app)\\.ts$` },
    },
    {
      name: 'feature-through-index',
      severity: 'error',
      comment: "Another feature is used only through its index.ts, never its internals.",
      from: { path: `${SRC}features/([^/]+)/` },
      to: {
        path: `${SRC}features/[^/]+/`,
        pathNot: [`${SRC}features/$1/`, `${SRC}features/[^/]+/index\\.ts$`],
      },
    },
    {
      name: 'access-is-pure',
      severity: 'error',
      comment: 'The access model is pure (the console imports it): it imports nothing outside itself.',
      from: { path: `${SRC}access/` },
      to: { pathNot: `${SRC}access/` },
    },
    {
      name: 'layers-below-features',
      severity: 'error',
      comment: 'http/, infra/, shared/, db/, store/, mail/, crypto/, config/ and errors/ serve the features, not the other way.',
      from: { path: `${SRC}(http|infra|shared|db|store|mail|crypto|config|errors|outbox)/` },
      to: { path: `${SRC}features/` },
    },
    {
      name: 'no-bench-or-tests-in-src',
      severity: 'error',
      comment: 'Production code never imports the benchmark or the test helpers.',
      from: { path: SRC, pathNot: '\\.test\\.ts$' },
      to: { path: '^services/identity/(bench|test)/' },
    },
    {
      name: 'console-imports-only-access',
      severity: 'error',
      comment: "The console imports no server code but the service package's ./access export (the pure model).",
      from: { path: '^console/' },
      to: { path: '^services/identity/', pathNot: `${SRC}access/` },
    },
    {
      name: 'hosted-imports-no-server-code',
      severity: 'error',
      comment:
        'The hosted pages use the service only over HTTP, through the published better-auth client (their browser tests may start its loopback OpenID provider).',
      from: { path: '^hosted/src/' },
      to: { path: '^services/identity/' },
    },
    {
      name: 'console-imports-access-by-package',
      severity: 'error',
      comment: "The console names the model as '@identity/service/access', not by a relative path into the service.",
      from: { path: '^console/' },
      to: { path: `${SRC}access/`, dependencyTypes: ['local'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|dist-bench|node_modules)/' },
    tsPreCompilationDeps: true,
    combinedDependencies: false,
    preserveSymlinks: false,
  },
};
