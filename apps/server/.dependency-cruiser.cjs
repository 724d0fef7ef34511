// Dependency rules for the server (house style, "Imports run one way"):
//   app.ts, main.ts, cli/ → modules/<module> → delivery/ → plugins/ → lib/, config.ts → db/ → @leadrelay/shared
// Run from the repository root: npm run lint:deps:server.
// Paths may start with apps/server/ (run from the root) or not (run from apps/server).
const SRC = '^(?:apps/server/)?src/';
const TEST = ['[.]test[.]ts$', '[.]test-kit[.]ts$', `${SRC}test/`];
const BOOT = `${SRC}(app|main|env|demo-emulators|logger)[.]ts$|${SRC}cli/`;

/** A layer may import the layers below it, never one above. */
const layer = (name, from, above) => ({
  name,
  comment: `${name}: imports run one way (boot → modules → delivery → plugins → lib → db)`,
  severity: 'error',
  from: { path: from, pathNot: TEST },
  to: { path: above },
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    layer('modules-not-to-boot', `${SRC}modules/`, BOOT),
    layer('delivery-not-up', `${SRC}delivery/`, `${BOOT}|${SRC}modules/`),
    layer('plugins-not-up', `${SRC}plugins/`, `${BOOT}|${SRC}(modules|delivery)/`),
    layer('lib-not-up', `${SRC}(lib/|config[.]ts$)`, `${BOOT}|${SRC}(modules|delivery|plugins)/`),
    layer('db-not-up', `${SRC}db/`, `${BOOT}|${SRC}(modules|delivery|plugins|lib)/|${SRC}config[.]ts$`),
    {
      name: 'no-circular',
      comment: 'A circle (type-only ones included) means the layers above are not one way.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that resolves to nothing escapes the rules above.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'not-to-test',
      comment: 'Code that ships does not import test helpers or test kits.',
      severity: 'error',
      from: { pathNot: TEST },
      to: { path: TEST },
    },
    {
      name: 'no-non-package-json',
      comment: 'A package the server uses is in its package.json, not borrowed through hoisting.',
      severity: 'error',
      from: { pathNot: TEST },
      to: { dependencyTypes: ['npm-no-pkg', 'npm-unknown'] },
    },
  ],
  options: {
    // TypeScript 7 has no JavaScript API for dependency-cruiser to parse with; swc parses instead.
    parser: 'swc',
    // swc counts type-only imports as well: a type-only circle is still a circle. (With TypeScript 7
    // `tsPreCompilationDeps` would only warn that no compatible compiler was found.)
    doNotFollow: { path: 'node_modules' },
    combinedDependencies: true,
    preserveSymlinks: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
