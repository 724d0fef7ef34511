// Builds the server into dist/: what `npm start` runs (JavaScript, not TypeScript compiled at each
// start). The workspace packages (@leadrelay/shared, @leadrelay/connectors: TypeScript sources) are
// bundled in; every other package stays an import resolved from node_modules at run time.
// Skips the work when dist is newer than every source it is made of (`--force` builds anyway).
import { join } from 'node:path';
import { build } from 'esbuild';
import { isUpToDate } from '../../scripts/up-to-date.mjs';

const here = import.meta.dirname;
const root = join(here, '../..');
const entryPoints = {
  main: 'src/main.ts',
  owner: 'src/cli/owner.ts',
  'import-pglite': 'src/cli/import-pglite.ts',
  'embedded-postgres': 'src/db/embedded-postgres.ts',
};
const sources = [
  join(here, 'src'),
  join(here, 'package.json'),
  join(root, 'packages/shared/src'),
  join(root, 'packages/connectors/src'),
  join(root, 'package-lock.json'),
  import.meta.filename,
];
const outputs = Object.keys(entryPoints).map((name) => join(here, `dist/${name}.js`));

/** Bare imports stay external except our own workspace packages, which are TypeScript sources. */
const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@leadrelay/') ? undefined : { path: args.path, external: true },
    );
  },
};

if (process.argv.includes('--force') || !isUpToDate(sources, outputs)) {
  const started = Date.now();
  await build({
    absWorkingDir: here,
    entryPoints,
    outdir: 'dist',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    sourcemap: true,
    logLevel: 'warning',
    plugins: [externalPackages],
  });
  console.info(`server built into apps/server/dist in ${Date.now() - started} ms`);
}
