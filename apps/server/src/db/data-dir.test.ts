// The data folder: one app per folder, a persisted JWT secret, the owner bootstrap and the owner
// CLI (the built one, as `npm run owner` runs it), on the embedded PostgreSQL the folder holds.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app';
import { loadEnv } from '../app-modules';
import { seedCluster } from '../test/ready-cluster';
import { buildServer, SERVER_ROOT, scratchDataDir } from '../test/server-process';
import { bearer } from '../test/test-app';
import { DataDirLockedError, lockDataDir } from './data-dir-lock';

let dir: string;
beforeEach(() => {
  dir = scratchDataDir('lr-data-');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

beforeAll(buildServer);

function runOwnerCli(args: string[], dataDir: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  delete env.INIT_CWD;
  return spawnSync(process.execPath, ['dist/owner.js', ...args], {
    cwd: SERVER_ROOT,
    env,
    encoding: 'utf8',
  });
}

describe('data folder', () => {
  it('lets one process use it; a second open fails with a clear message', async () => {
    await seedCluster(dir);
    const app = await buildApp({ dataDir: dir });
    try {
      await expect(buildApp({ dataDir: dir })).rejects.toThrow(
        `is using DATA_DIR ${dir}; stop it or set DATA_DIR/DATABASE_URL`,
      );
      expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    } finally {
      await app.close();
    }
    const again = await buildApp({ dataDir: dir });
    await again.close();
  });

  it('takes over the lock of a dead process', async () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    writeFileSync(
      join(dir, 'leadrelay.lock'),
      JSON.stringify({ pid: dead, host: (await import('node:os')).hostname() }),
    );
    const lock = lockDataDir(dir);
    expect(JSON.parse(readFileSync(lock.path, 'utf8')).pid).toBe(process.pid);
    lock.release();
  });

  it('takes over the lock of a killed process that its parent has not reaped yet (a zombie)', async () => {
    // `sleep 0.2` ends soon; the shell that started it has become `sleep 5`, which never reaps it.
    const parent = spawn('sh', ['-c', 'sleep 0.2 & echo $!; exec sleep 5'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const zombie = Number((await once(parent.stdout, 'data'))[0].toString().trim());
      await vi.waitFor(() => expect(readFileSync(`/proc/${zombie}/stat`, 'utf8')).toMatch(/\) Z /));
      writeFileSync(join(dir, 'leadrelay.lock'), JSON.stringify({ pid: zombie, host: hostname() }));
      const lock = lockDataDir(dir);
      expect(JSON.parse(readFileSync(lock.path, 'utf8')).pid).toBe(process.pid);
      lock.release();
    } finally {
      parent.kill('SIGKILL');
    }
  });

  it('keeps a generated JWT secret (mode 0600) so tokens survive a restart', async () => {
    await seedCluster(dir);
    const first = await buildApp({ dataDir: dir, owner: { login: 'boss@example.com', password: 'Boss1234' } });
    const login = await first.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { login: 'boss@example.com', password: 'Boss1234' },
    });
    expect(login.statusCode).toBe(200);
    await first.close();
    const file = join(dir, 'jwt-secret');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim().length).toBeGreaterThanOrEqual(32);

    const second = await buildApp({ dataDir: dir });
    const me = await second.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(login.json().accessToken) });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ login: 'boss@example.com', role: 'owner', expDate: null, emailConfirmed: true });
    await second.close();
  });
});

describe('owner CLI', () => {
  it('refuses while the server holds the folder, then creates and updates the owner', async () => {
    await seedCluster(dir);
    const app = await buildApp({ dataDir: dir });
    const refused = runOwnerCli(['--login', 'Owner@Example.com', '--password', 'Secret123'], dir);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain(`is using DATA_DIR ${dir}; stop it or set DATA_DIR/DATABASE_URL`);
    await app.close();

    const created = runOwnerCli(['--login', 'Owner@Example.com', '--password', 'Secret123'], dir);
    expect(created.stdout, created.stderr).toMatch(/Created owner owner@example\.com/);
    expect(created.status).toBe(0);
    const updated = runOwnerCli(['--login', 'owner@example.com', '--password', 'Secret456'], dir);
    expect(updated.stdout).toMatch(/Updated owner owner@example\.com/);

    const weak = runOwnerCli(['--login', 'owner@example.com', '--password', 'weak'], dir);
    expect(weak.status).toBe(1);
    expect(weak.stderr).toMatch(/MINIMUM_8_ONE_UPPERCASE_LETTER_ONE_LOWERCASE_ONE_NUMBER/);
    expect(runOwnerCli([], dir).status).toBe(2);

    const after = await buildApp({ dataDir: dir });
    const res = await after.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { login: 'owner@example.com', password: 'Secret456' },
    });
    expect(res.statusCode).toBe(200);
    await after.close();
  }, 120_000); // five CLI processes, each starting the embedded PostgreSQL: slow on a loaded 2-core machine
});

describe('environment', () => {
  it('resolves DATA_DIR against the folder npm started in, and fills defaults', () => {
    const env = loadEnv({ INIT_CWD: '/srv/app', DATA_DIR: './data' });
    expect(env).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      publicUrl: 'http://localhost:3000',
      dataDir: '/srv/app/data',
      mailFrom: 'LeadRelay <no-reply@localhost>',
      demoDays: 14,
      logLevel: 'info',
      trustProxy: false,
    });
    expect(env.webDist).toMatch(/apps\/web\/dist$/);
    expect(loadEnv({ PORT: '4000', TRUST_PROXY: 'true' })).toMatchObject({
      publicUrl: 'http://localhost:4000',
      trustProxy: true,
    });
    expect(loadEnv({ OWNER_LOGIN: 'a@b.co', OWNER_PASSWORD: 'Abcdefg1' }).owner).toEqual({
      login: 'a@b.co',
      password: 'Abcdefg1',
    });
    expect(() => loadEnv({ PORT: 'abc' })).toThrow(/PORT/);
  });
});
