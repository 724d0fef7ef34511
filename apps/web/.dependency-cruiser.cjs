// Dependency rules of the web app (house style, "Imports run one way"):
//   app/ → features/<feature> → components/ → lib/ → @leadrelay/shared
// Run from the repository root, whose package.json it reads too: npm run lint:deps:web (in npm run lint).

// TypeScript 7 has no JavaScript API, so dependency-cruiser parses with swc. Without it no .ts or
// .tsx file would be read and every rule below would pass on an empty graph: fail loudly instead.
require('@swc/core');

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
    {
      name: 'no-circular',
      comment: 'A circle, type-only ones included, means the layers above do not run one way.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-test',
      comment: 'Code that ships does not import tests or test helpers.',
      severity: 'error',
      from: { pathNot: TEST },
      to: { path: TEST },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that resolves to no file breaks the build, and escapes every rule above.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'no-non-package-json',
      comment: "A package the web app imports is in its own package.json, not borrowed from another workspace's.",
      severity: 'error',
      from: {},
      to: { dependencyTypes: ['npm-no-pkg', 'npm-unknown'] },
    },
    {
      name: 'not-to-dev-dep',
      comment: 'Code that ships does not import devDependencies; tests may.',
      severity: 'error',
      from: { path: SRC, pathNot: TEST },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-duplicate-dep-types',
      comment: 'A package listed both in dependencies and devDependencies.',
      severity: 'warn',
      from: {},
      to: { moreThanOneDependencyType: true, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'not-to-deprecated',
      comment: 'A package version its authors deprecated.',
      severity: 'warn',
      from: {},
      to: { dependencyTypes: ['deprecated'] },
    },
  ],
  options: {
    // swc keeps type-only imports in the graph, so a type-only circle counts as a circle.
    // tsPreCompilationDeps would ask for the TypeScript compiler (typescript <7), which we do not
    // have: it only adds a warning that TypeScript sources may be missed.
    parser: 'swc',
    doNotFollow: { path: 'node_modules' },
    // The web app's package.json and the root's, for the package rules above.
    combinedDependencies: true,
    // @leadrelay/shared stays a package under node_modules instead of being cruised as source.
    preserveSymlinks: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
  },
};
