// The embedded default as a person running `npm start` meets it: the built server on a data folder
// with no DATABASE_URL creates a PostgreSQL cluster there, keeps every acknowledged lead through a
// kill -9 of the app (and of the database, as a machine crash does), takes over the server a killed
// app left running, starts after a crash left a stale pid file, stops its database on SIGTERM, and
// tells a second app on the same folder, or an old PGlite folder, in one line.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCluster } from '../test/ready-cluster';
import {
  api,
  buildServer,
  freePort,
  ownerToken,
  type ServerProcess,
  scratchDataDir,
  startServer,
  whenUp,
} from '../test/server-process';
import { isAlive } from './data-dir-lock';

let dir: string;
const started: ServerProcess[] = [];

beforeAll(() => {
  buildServer();
  dir = scratchDataDir('lr-embedded-');
});

afterAll(async () => {
  for (const server of started) server.child.kill('SIGKILL');
  // Whatever a failed test left running on its cluster.
  for (const name of ['app', 'two', 'two-port', 'port', 'legacy']) {
    const pid = postmasterPid(join(dir, name));
    if (pid && isAlive(pid)) process.kill(pid, 'SIGQUIT');
  }
  rmSync(dir, { recursive: true, force: true });
});

function start(dataDir: string, port: number): ServerProcess {
  const server = startServer(dataDir, port);
  started.push(server);
  return server;
}

/** A data folder with a cluster in it: the first test covers its creation. */
async function seeded(dataDir: string): Promise<string> {
  mkdirSync(dataDir, { recursive: true });
  await seedCluster(dataDir);
  return dataDir;
}

function postmasterPid(dataDir: string): number | undefined {
  const file = join(dataDir, 'postgres', 'postmaster.pid');
  return existsSync(file) ? Number(readFileSync(file, 'utf8').split('\n')[0]) : undefined;
}

async function waitGone(pid: number, withinMs = 20_000): Promise<void> {
  const until = Date.now() + withinMs;
  while (isAlive(pid)) {
    if (Date.now() > until) throw new Error(`process ${pid} is still running`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A webhook source of the owner; answers its id and public URL. */
async function webhookSource(server: ServerProcess, token: string): Promise<{ id: string; hookPath: string }> {
  const created = await api<{ _id: string }>(server, 'POST', '/api/integrations', token, {
    type: 'webhook',
    name: 'Сайт',
  });
  expect(created.status).toBe(201);
  const hook = await api<{ url: string }>(server, 'GET', `/api/integrations/${created.json._id}/generateHook`, token);
  return { id: created.json._id, hookPath: new URL(hook.json.url).pathname };
}

async function sendLead(server: ServerProcess, hookPath: string, name: string): Promise<void> {
  const res = await api(server, 'POST', hookPath, undefined, { name, phone: '+380501234567' });
  expect([200, 202]).toContain(res.status);
}

async function hookCount(server: ServerProcess, token: string, sourceId: string): Promise<number> {
  const res = await api<{ total: number }>(
    server,
    'GET',
    `/api/legacy/api/admin/integration/${sourceId}/webhooks?limit=100`,
    token,
  );
  expect(res.status).toBe(200);
  return res.json.total;
}

describe('the embedded PostgreSQL', () => {
  it('keeps every acknowledged lead through kill -9 of the app, then of the database, and stops on SIGTERM', async () => {
    const dataDir = join(dir, 'app');
    const port = await freePort();

    // First start: the cluster is created in DATA_DIR/postgres.
    const first = start(dataDir, port);
    await whenUp(first);
    expect(first.output()).toContain(`creating the embedded PostgreSQL cluster in ${join(dataDir, 'postgres')}`);
    expect(existsSync(join(dataDir, 'postgres', 'PG_VERSION'))).toBe(true);
    let token = await ownerToken(first);
    const source = await webhookSource(first, token);
    for (let i = 1; i <= 5; i++) await sendLead(first, source.hookPath, `Олена ${i}`);

    // kill -9 of the app: its PostgreSQL goes on, and the next start takes it over.
    const postmaster = postmasterPid(dataDir)!;
    first.child.kill('SIGKILL');
    await first.exited;
    expect(isAlive(postmaster)).toBe(true);
    const second = start(dataDir, port);
    await whenUp(second);
    expect(second.output()).toContain(
      `taking over the embedded PostgreSQL left running by an earlier process (pid ${postmaster})`,
    );
    token = await ownerToken(second);
    expect(await hookCount(second, token, source.id)).toBe(5);
    await sendLead(second, source.hookPath, 'Після першого збою');

    // A machine crash: the app and the database die at once (no shutdown, no checkpoint).
    second.child.kill('SIGKILL');
    process.kill(-postmaster, 'SIGKILL'); // the postmaster leads its own process group (pg_ctl's setsid)
    await second.exited;
    await waitGone(postmaster);
    expect(postmasterPid(dataDir)).toBe(postmaster); // the stale pid file stays behind

    const third = start(dataDir, port);
    await whenUp(third);
    token = await ownerToken(third);
    expect(await hookCount(third, token, source.id)).toBe(6);

    // SIGTERM: the app stops its database and gives the folder back, also when the signal comes
    // twice (under `npm start` a Ctrl+C reaches the app from the terminal and again from npm).
    const running = postmasterPid(dataDir)!;
    third.child.kill('SIGTERM');
    setTimeout(() => third.child.kill('SIGTERM'), 10);
    expect(await third.exited).toBe(0);
    await waitGone(running);
    expect(existsSync(join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
    expect(existsSync(join(dataDir, 'leadrelay.lock'))).toBe(false);
  }, 180_000);

  it('starts when the pid file names a live process that is not its server (pid reused after a reboot)', async () => {
    const dataDir = join(dir, 'app');
    // The vitest process: alive, and not a postmaster of this cluster.
    writeFileSync(join(dataDir, 'postgres', 'postmaster.pid'), `${process.pid}\n${join(dataDir, 'postgres')}\n`);
    const server = start(dataDir, await freePort());
    await whenUp(server);
    expect(server.output()).toContain(`removing a stale postmaster.pid (pid ${process.pid}`);
    const token = await ownerToken(server);
    const list = await api<{ total: number }>(server, 'GET', '/api/integrations', token);
    expect(list.json.total).toBe(1);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 120_000);

  it('refuses a second app on the same folder in one line, and leaves the first one running', async () => {
    const dataDir = join(dir, 'two');
    await seeded(dataDir);
    const first = start(dataDir, await freePort());
    await whenUp(first);
    const second = start(dataDir, await freePort());
    expect(await second.exited).toBe(1);
    const lines = second.stderr().trim().split('\n');
    expect(lines).toEqual([
      expect.stringContaining(`Another LeadRelay process (pid ${first.child.pid}) is using DATA_DIR ${dataDir}`),
    ]);
    expect((await fetch(`${first.url}/api/health`)).ok).toBe(true);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
  }, 120_000);

  it('says in one line that the port is taken, and leaves no database running', async () => {
    const dataDir = join(dir, 'port');
    await seeded(dataDir);
    const first = start(await seeded(join(dir, 'two-port')), await freePort());
    await whenUp(first);
    const taken = Number(new URL(first.url).port);
    const second = start(dataDir, taken);
    expect(await second.exited).toBe(1);
    expect(second.stderr().trim().split('\n')).toEqual([
      `Cannot listen on 127.0.0.1:${taken} (the port is taken): set PORT to another port`,
    ]);
    expect(existsSync(join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
    expect(existsSync(join(dataDir, 'leadrelay.lock'))).toBe(false);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
  }, 120_000);

  it('leaves an old PGlite folder untouched and names the import command in one line', async () => {
    const dataDir = join(dir, 'legacy');
    const pglite = join(dataDir, 'pglite');
    mkdirSync(pglite, { recursive: true });
    writeFileSync(join(pglite, 'PG_VERSION'), '17\n');
    const server = start(dataDir, await freePort());
    expect(await server.exited).toBe(1);
    expect(server.stderr().trim().split('\n')).toEqual([
      `${pglite} holds the database of an earlier LeadRelay (PGlite), which this version no longer opens: copy it into the embedded PostgreSQL with "npm run db:import-pglite" (see the README), or move that folder away to start with an empty database`,
    ]);
    expect(execFileSync('ls', ['-A', pglite], { encoding: 'utf8' }).trim()).toBe('PG_VERSION');
    expect(readFileSync(join(pglite, 'PG_VERSION'), 'utf8')).toBe('17\n');
    expect(existsSync(join(dataDir, 'postgres'))).toBe(false);
  }, 60_000);
});
