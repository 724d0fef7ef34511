// Dependency rules for the server (house style, "Imports run one way"):
//   app.ts, main.ts, cli/ → modules/<module> → delivery/ and plugins/ (side by side, neither
//   importing the other: the worker knows no Fastify plugin) → lib/, config.ts → db/ → @leadrelay/shared
// env.ts and config.ts are boot and library code that know no module: the modules declare their
// settings and the boot code hands env.ts the list (app-modules.ts).
// Run from the repository root: npm run lint:deps:server.
const SRC = '^apps/server/src/';
const TEST = ['[.]test[.]ts$', '[.]test-kit[.]ts$', `${SRC}test/`];
const BOOT = `${SRC}(app|app-[a-z-]+|main|env|demo-emulators|logger)[.]ts$|${SRC}cli/`;

const { commonRules, options } = require('../../scripts/dependency-cruiser-base.cjs');

/** A layer may import the layers below it, never one above. */
const layer = (name, from, above) => ({
  name,
  comment: `${name}: imports run one way (boot → modules → delivery and plugins → lib → db)`,
  severity: 'error',
  from: { path: from, pathNot: TEST },
  to: { path: above },
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    layer('modules-not-to-boot', `${SRC}modules/`, BOOT),
    layer('delivery-not-up', `${SRC}delivery/`, `${BOOT}|${SRC}(modules|plugins)/`),
    layer('plugins-not-up', `${SRC}plugins/`, `${BOOT}|${SRC}(modules|delivery)/`),
    layer('lib-not-up', `${SRC}(lib/|config[.]ts$)`, `${BOOT}|${SRC}(modules|delivery|plugins)/`),
    layer('db-not-up', `${SRC}db/`, `${BOOT}|${SRC}(modules|delivery|plugins|lib)/|${SRC}config[.]ts$`),
    {
      name: 'modules-through-their-door',
      comment:
        'A module uses another only through its index.ts, the list of what it offers (issue 29); the rest of a module is its own. Tests may reach inside.',
      severity: 'error',
      from: { path: `${SRC}modules/([^/]+)/`, pathNot: TEST },
      to: { path: `${SRC}modules/[^/]+/`, pathNot: [`${SRC}modules/$1/`, `${SRC}modules/[^/]+/index[.]ts$`] },
    },
    {
      name: 'settings-know-no-module',
      comment:
        'env.ts and config.ts know no module (issue 29): a module declares its environment keys on its descriptor (lib/env-settings.ts), and the boot code hands env.ts the list.',
      severity: 'error',
      from: { path: `${SRC}(env|config)[.]ts$` },
      to: { path: `${SRC}modules/` },
    },
    {
      name: 'app-through-the-doors',
      comment:
        "The app's wiring (app.ts, app-*.ts, main.ts) takes a module only through its index.ts: its descriptor and what it offers (issue 29).",
      severity: 'error',
      from: { path: `${SRC}(app|app-[a-z-]+|main)[.]ts$` },
      to: { path: `${SRC}modules/[^/]+/`, pathNot: `${SRC}modules/[^/]+/index[.]ts$` },
    },
    ...commonRules('server', TEST),
  ],
  options,
};
