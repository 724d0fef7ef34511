// Builds the server into dist/: what `npm start` runs (JavaScript, not TypeScript compiled at each
// start). The workspace packages (@leadrelay/shared, @leadrelay/connectors: TypeScript sources) are
// bundled in; every other package stays an import resolved from node_modules at run time.
// Skips the work when dist is newer than every source it is made of.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const here = import.meta.dirname;
const root = join(here, '../..');
export const entryPoints = {
  main: 'src/main.ts',
  owner: 'src/cli/owner.ts',
  'import-pglite': 'src/cli/import-pglite.ts',
  'embedded-postgres': 'src/db/embedded-postgres.ts',
};
const sources = [join(here, 'src'), join(root, 'packages/shared/src'), join(root, 'packages/connectors/src')];
const stamp = join(here, 'dist/main.js');

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const time = entry.isDirectory() ? newest(path) : statSync(path).mtimeMs;
    if (time > latest) latest = time;
  }
  return latest;
}

const upToDate = () =>
  existsSync(stamp) &&
  Math.max(...sources.map(newest), statSync(import.meta.filename).mtimeMs) < statSync(stamp).mtimeMs &&
  Object.keys(entryPoints).every((name) => existsSync(join(here, `dist/${name}.js`)));

/** Bare imports stay external except our own workspace packages, which are TypeScript sources. */
const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@leadrelay/') ? undefined : { path: args.path, external: true },
    );
  },
};

if (process.argv.includes('--force') || !upToDate()) {
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
