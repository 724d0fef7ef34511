// What the server's and the web app's dependency rules share (apps/*/.dependency-cruiser.cjs): the
// rules every workspace keeps besides its own layers, and the options. Run from the repository root.

// TypeScript 7 has no JavaScript API, so dependency-cruiser parses with swc. Without it no .ts or
// .tsx file would be read and every rule would pass on an empty graph: fail loudly instead.
require('@swc/core');

/** `test`: the paths of test code, which may import test helpers and devDependencies. */
const commonRules = (workspace, test) => [
  {
    name: 'no-circular',
    comment: 'A circle, type-only ones included, means the layers do not run one way.',
    severity: 'error',
    from: {},
    to: { circular: true },
  },
  {
    name: 'not-to-test',
    comment: 'Code that ships does not import tests, test helpers or test kits.',
    severity: 'error',
    from: { pathNot: test },
    to: { path: test },
  },
  {
    name: 'not-to-unresolvable',
    comment: 'An import that resolves to no file breaks the build, and escapes every other rule.',
    severity: 'error',
    from: {},
    to: { couldNotResolve: true },
  },
  {
    name: 'no-non-package-json',
    comment: `A package the ${workspace} imports is in its own package.json, not borrowed from another workspace's.`,
    severity: 'error',
    from: {},
    to: { dependencyTypes: ['npm-no-pkg', 'npm-unknown'] },
  },
  {
    name: 'not-to-dev-dep',
    comment: 'Code that ships does not import devDependencies; tests may.',
    severity: 'error',
    from: { pathNot: test },
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
];

const options = {
  // swc keeps type-only imports in the graph, so a type-only circle counts as a circle.
  // tsPreCompilationDeps would ask for the TypeScript compiler (typescript <7), which we do not
  // have: it only adds a warning that TypeScript sources may be missed.
  parser: 'swc',
  doNotFollow: { path: 'node_modules' },
  // The workspace's package.json and the root's, for the package rules.
  combinedDependencies: true,
  // @leadrelay/* stay packages under node_modules instead of being cruised as source.
  preserveSymlinks: true,
  enhancedResolveOptions: {
    exportsFields: ['exports'],
    conditionNames: ['import', 'require', 'node', 'default', 'types'],
    mainFields: ['module', 'main', 'types', 'typings'],
  },
};

module.exports = { commonRules, options };
