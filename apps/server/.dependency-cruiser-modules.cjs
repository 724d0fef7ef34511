// Server modules talk through doors (issue 29): no circle between two folders under modules/, on
// the code that ships. Its own cruise, without tests: dependency-cruiser's folder rules cannot leave
// files out, and test files and helpers (src/test/) import across modules by design, which would
// join every folder in one circle. Run from the repository root by npm run lint:deps:server.
const SRC = '^apps/server/src/';
const { options } = require('../../scripts/dependency-cruiser-base.cjs');

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circle-between-modules',
      comment:
        'A module folder never reaches back to itself through another: what two modules share lives below them, or in the one the other calls.',
      severity: 'error',
      scope: 'folder',
      from: { path: `${SRC}modules/[^/]+/?$` },
      to: { path: `${SRC}modules/[^/]+/?$`, circular: true },
    },
  ],
  options: { ...options, exclude: { path: ['[.]test[.]ts$', '[.]test-kit[.]ts$', `${SRC}test/`] } },
};
