// `npm start`'s web build: `vite build` of apps/web, skipped when apps/web/dist is newer than
// every source it is made of (`npm run build` always builds).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { isUpToDate } from './up-to-date.mjs';

const root = join(import.meta.dirname, '..');
const web = join(root, 'apps/web');
const sources = [
  join(web, 'src'),
  join(web, 'public'),
  join(web, 'index.html'),
  join(web, 'vite.config.ts'),
  join(web, 'package.json'),
  join(root, 'packages/shared/src'),
  // The connectors' manifests, logos and words are web code too (ADR 014).
  join(root, 'packages/connectors/src'),
  join(root, 'package-lock.json'),
  import.meta.filename,
];

if (process.argv.includes('--force') || !isUpToDate(sources, [join(web, 'dist/index.html')])) {
  const built = spawnSync('npm', ['run', 'build', '-w', '@leadrelay/web'], { cwd: root, stdio: 'inherit' });
  process.exit(built.status ?? 1);
}
