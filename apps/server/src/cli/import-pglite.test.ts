// `npm run db:import-pglite` as a person upgrading from a PGlite install runs it: on a real data
// folder written by LeadRelay 0921fc5 (fixtures/pglite-0.5.16), the built command copies the old
// database into the embedded PostgreSQL, and the app then starts on it with everything in place.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  api,
  buildServer,
  freePort,
  SERVER_ROOT,
  type ServerProcess,
  scratchDataDir,
  startServer,
  whenUp,
} from '../test/server-process';

const FIXTURE = join(SERVER_ROOT, 'fixtures/pglite-0.5.16');
const expected = JSON.parse(readFileSync(join(FIXTURE, 'expected.json'), 'utf8'));
let dir: string;
const started: ServerProcess[] = [];

beforeAll(() => {
  buildServer();
  dir = scratchDataDir('lr-import-cli-');
  execFileSync('tar', ['-xJf', join(FIXTURE, 'data.tar.xz'), '-C', dir]);
});

afterAll(() => {
  for (const server of started) server.child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

function importCommand() {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dir };
  delete env.DATABASE_URL;
  delete env.INIT_CWD;
  return spawnSync(process.execPath, ['dist/import-pglite.js'], { cwd: SERVER_ROOT, env, encoding: 'utf8' });
}

it('copies an old PGlite folder into the embedded PostgreSQL; the app then starts on it as before', async () => {
  // While an app holds the folder the import is refused, in one line, and nothing changes.
  const running = startServer(dir, await freePort());
  started.push(running);
  expect(await running.exited).toBe(1); // the app itself refuses to start beside the old folder
  expect(running.stderr()).toMatch(/holds the database of an earlier LeadRelay \(PGlite\)/);

  const imported = importCommand();
  expect(imported.status, imported.stderr).toBe(0);
  expect(imported.stdout).toMatch(/Imported \d+ rows of \d+ tables\. The old folder is now .*pglite\.imported/);
  expect(existsSync(join(dir, 'pglite'))).toBe(false);
  expect(existsSync(join(dir, 'pglite.imported', 'PG_VERSION'))).toBe(true);

  const app = startServer(dir, await freePort());
  started.push(app);
  await whenUp(app);
  const { login, password } = expected.accounts.user;
  const signedIn = await api<{ accessToken: string }>(app, 'POST', '/api/auth/login', undefined, { login, password });
  expect(signedIn.status).toBe(200);
  const token = signedIn.json.accessToken;
  const integrations = await api<{ data: { name: string }[] }>(app, 'GET', '/api/integrations', token);
  expect(integrations.json.data.map((i) => i.name).sort()).toEqual(['CRM вебхук (тест)', 'Форма на сайті']);
  const source = expected.integrations.find((i: { type: string }) => i.type === 'webhook');
  const hooks = await api<{ total: number }>(
    app,
    'GET',
    `/api/legacy/api/admin/integration/${source.id}/webhooks?limit=100`,
    token,
  );
  expect(hooks.json.total).toBe(expected.tables.hooks);

  // An old folder put back while the app runs: the import is refused in one line, nothing changes.
  execFileSync('tar', ['-xJf', join(FIXTURE, 'data.tar.xz'), '-C', dir, 'pglite']);
  const again = importCommand();
  expect(again.status).toBe(1);
  expect(again.stderr.trim().split('\n')).toEqual([expect.stringContaining(`is using DATA_DIR ${dir}`)]);
  expect(existsSync(join(dir, 'pglite', 'PG_VERSION'))).toBe(true);
  app.child.kill('SIGTERM');
  expect(await app.exited).toBe(0);
  rmSync(join(dir, 'pglite'), { recursive: true });

  // With the app stopped there is nothing left to import.
  const nothing = importCommand();
  expect(nothing.status).toBe(1);
  expect(nothing.stderr.trim()).toBe(
    `There is no PGlite database in ${join(dir, 'pglite')}: nothing to import (is DATA_DIR right?)`,
  );
}, 300_000);
