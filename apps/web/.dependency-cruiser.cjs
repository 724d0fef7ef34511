// Dependency rules of the web app (house style, "Imports run one way"):
//   app/ → features/<feature> → components/ → lib/ → @leadrelay/shared
// Run from the repository root, whose package.json it reads too: npm run lint:deps:web (in npm run lint).

const { commonRules, options } = require('../../scripts/dependency-cruiser-base.cjs');

const SRC = '^apps/web/src/';
// Test code: *.test.ts(x), src/test/ and a feature's own test/ folder of fixtures. The layering rules
// hold for tests too; only the two rules about test code and devDependencies tell it apart.
const TEST = ['[.]test[.]tsx?$', `${SRC}test/`, `${SRC}features/[^/]+/test/`];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'features-not-to-app',
      comment: 'app/ mounts the features; a feature never reaches back into it. What both need moves down.',
      severity: 'error',
      from: { path: `${SRC}features/` },
      to: { path: `${SRC}app/` },
    },
    {
      name: 'feature-not-to-other-feature',
      comment:
        'One feature never imports another: what two share moves down to components/ or lib/, ' +
        'or app/ hands it over (app/integration-detail.tsx).',
      severity: 'error',
      from: { path: `${SRC}features/([^/]+)/` },
      to: { path: `${SRC}features/`, pathNot: `${SRC}features/$1/` },
    },
    {
      name: 'components-not-up',
      comment: 'components/ is shared UI below the features: it knows no feature and not the app shell.',
      severity: 'error',
      from: { path: `${SRC}components/` },
      to: { path: `${SRC}(?:features|app)/` },
    },
    {
      name: 'lib-not-up',
      comment: 'lib/ is plumbing below the UI: it knows no component, no feature and not the app shell.',
      severity: 'error',
      from: { path: `${SRC}lib/` },
      to: { path: `${SRC}(?:components|features|app)/` },
    },
    ...commonRules('web app', TEST),
  ],
  options,
};
