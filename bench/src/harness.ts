// What every bench needs: a fresh PostgreSQL database (created and dropped) or the server's own
// embedded PostgreSQL, LeadRelay server processes on 127.0.0.1 (the built server, as `npm start`
// runs it), an owner account, and a webhook source with one http destination.
// Everything started here is registered for cleanup, which also runs on Ctrl-C.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, freemem, loadavg, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import pg from 'pg';
import { clusterDirOf, stopLeftoverPostgres } from './embedded';

export const ROOT = resolve(import.meta.dirname, '../..');
export const SERVER_DIR = join(ROOT, 'apps/server');
export const ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const OWNER = { login: 'bench-owner@example.com', password: 'BenchSecret2026' };

type Cleanup = () => Promise<void> | void;
const cleanups: Cleanup[] = [];

/** Runs `fn` last-in first-out at the end of the bench (or on Ctrl-C / SIGTERM). */
export function onCleanup(fn: Cleanup): void {
  cleanups.push(fn);
}

export async function cleanup(): Promise<void> {
  while (cleanups.length) {
    const fn = cleanups.pop()!;
    try {
      await fn();
    } catch (error) {
      console.error('cleanup step failed:', error);
    }
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: cleaning up`);
    void cleanup().finally(() => process.exit(130));
  });
}

export const log = (...args: unknown[]) => console.info(`[${new Date().toISOString().slice(11, 23)}]`, ...args);

/** A scratch folder under /tmp for data dirs and server logs, removed at the end. */
export function scratchDir(runId: string): string {
  const dir = join('/tmp', `leadrelay-bench-${runId}`);
  mkdirSync(dir, { recursive: true });
  onCleanup(() => {
    if (!process.env.BENCH_KEEP) rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

/** CREATE DATABASE leadrelay_bench_<runId>; dropped (WITH FORCE) at cleanup. */
export async function createDatabase(runId: string, settings: string[] = []): Promise<string> {
  const name = `leadrelay_bench_${runId.replace(/\W/g, '_')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
    // Diagnostics only (e.g. synchronous_commit=off to see what the WAL flush costs): the
    // setting applies to this database's sessions, never to the server as a whole.
    for (const setting of settings) {
      const m = /^(\w+)=([\w.]+)$/.exec(setting);
      if (!m) throw new Error(`--pg-setting must look like name=value, got ${setting}`);
      await admin.query(`alter database ${name} set ${m[1]} = '${m[2]}'`);
    }
  } finally {
    await admin.end();
  }
  onCleanup(async () => {
    const c = new pg.Client({ connectionString: ADMIN_URL });
    await c.connect();
    try {
      await c.query(`drop database if exists ${name} with (force)`);
    } finally {
      await c.end();
    }
  });
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * `pg`: a database of its own on the PostgreSQL server at BENCH_PG_URL (DATABASE_URL).
 * `embedded`: no DATABASE_URL, so the server runs its embedded PostgreSQL in its fresh DATA_DIR.
 */
export type Engine = 'pg' | 'embedded' | 'owned';

interface EmbeddedCluster {
  url: string;
  stop(): Promise<void>;
}

/** The bench's own cluster: room for pgbench's 100 clients beside the servers, and statement statistics. */
export const OWNED_SETTINGS = ['max_connections=300', 'shared_preload_libraries=pg_stat_statements'];

/** The DATABASE_URL a run's servers get: pg and owned a database of the run's own, embedded none. */
export async function benchDatabase(engine: Engine, runId: string, dir: string, pgSettings: string[] = []) {
  if (engine === 'pg') return createDatabase(runId, pgSettings);
  if (engine === 'owned') return (await ownCluster(dir, OWNED_SETTINGS)).url;
  return undefined;
}

/**
 * A PostgreSQL cluster the bench owns (the embedded binaries, durable: fsync and synchronous
 * commit on), in `<dir>/pg`, removed at cleanup; `settings` as `name=value`. `restart` is a fast
 * shutdown (every session cut, everything committed kept) then a start: ms it was down.
 */
export async function ownCluster(dir: string, settings: string[] = []) {
  await buildServer();
  const modulePath = join(ROOT, 'apps/server/dist/embedded-postgres.js');
  const { startEmbeddedPostgres } = (await import(modulePath)) as {
    startEmbeddedPostgres(o: { dataDir: string; settings?: string[] }): Promise<EmbeddedCluster>;
  };
  const dataDir = join(dir, 'pg');
  let current = await startEmbeddedPostgres({ dataDir, settings });
  const url = current.url;
  onCleanup(async () => {
    await current.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    url,
    async restart(): Promise<number> {
      const started = performance.now();
      await current.stop();
      current = await startEmbeddedPostgres({ dataDir, settings });
      if (current.url !== url) throw new Error(`the restarted cluster moved: ${current.url}`);
      return Math.round(performance.now() - started);
    },
  };
}

let built: Promise<void> | undefined;

/** `node apps/server/build.mjs` once per bench run (it builds only when a source is newer than dist). */
export function buildServer(): Promise<void> {
  built ??= promisify(execFile)(process.execPath, [join(SERVER_DIR, 'build.mjs')], {
    cwd: ROOT,
    timeout: 300_000,
  }).then(({ stdout }) => {
    if (stdout.trim()) log(stdout.trim());
  });
  return built;
}

export interface ServerOptions {
  name: string;
  role: 'api' | 'worker' | 'all';
  port: number;
  dir: string;
  /** Unset: the embedded PostgreSQL in the server's DATA_DIR (ROLE=all only, as the server itself insists). */
  databaseUrl?: string;
  jwtSecret: string;
  /** ENCRYPTION_KEY (64 hex characters): every process on one database needs the same. */
  encryptionKey: string;
  /** Create the owner on start (give it to the first process only). */
  owner?: boolean;
  /** Extra node flags, e.g. ['--cpu-prof', '--cpu-prof-dir=…']. */
  nodeArgs?: string[];
  /** Extra environment, e.g. { EMULATORS: 'true', PUBLIC_URL: … } for benchmark (d). */
  env?: Record<string, string>;
}

export interface ServerProcess {
  name: string;
  url: string;
  dataDir: string;
  /** The embedded PostgreSQL's cluster (DATA_DIR/postgres) when there is no DATABASE_URL. */
  clusterDir?: string;
  child: ChildProcess;
  exited: Promise<number | null>;
  /** SIGTERM and wait (SIGKILL after 15 s). */
  stop(): Promise<void>;
  /** SIGKILL: a crash. */
  kill9(): Promise<void>;
}

/**
 * Node's flags for the server, as `npm start` passes them (apps/server/package.json): source maps
 * for stack traces, and young-generation semi-spaces of at most 16 MB: V8's default on this
 * machine left an idle server at about 320 MB resident, 16 MB at about 220 MB, for 2–4 % of ingest
 * throughput (docs/benchmarks.md, issue 18 part 6).
 */
export const SERVER_NODE_FLAGS = ['--enable-source-maps', '--max-semi-space-size=16'] as const;

/** The server's tuning settings a bench run passes on from its own environment (and prints). */
export const TUNABLES = ['DB_POOL_SIZE', 'WORKER_DB_POOL_SIZE', 'WORKER_CONCURRENCY', 'NODE_OPTIONS'] as const;

/** The tuning settings this run passes on, for the result. */
export function tunables(): Record<string, string> | undefined {
  const set = TUNABLES.filter((name) => process.env[name] !== undefined);
  return set.length ? Object.fromEntries(set.map((name) => [name, process.env[name]!])) : undefined;
}

/**
 * Builds the server when stale, then starts `node SERVER_NODE_FLAGS dist/main.js` in
 * apps/server (what `npm start` runs after its build checks, minus the npm and shell processes,
 * so a signal reaches the server itself) and waits for /api/health.
 */
export async function startServer(o: ServerOptions): Promise<ServerProcess> {
  if (!o.databaseUrl && o.role !== 'all') {
    throw new Error(`ROLE=${o.role} needs DATABASE_URL: the embedded PostgreSQL belongs to one ROLE=all process`);
  }
  await buildServer();
  const dataDir = join(o.dir, `data-${o.name}`);
  mkdirSync(dataDir, { recursive: true });
  const logPath = join(o.dir, `${o.name}.log`);
  const out = createWriteStream(logPath, { flags: 'a' });
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: String(o.port),
    PARSER_SMTP_PORT: 'off',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ROLE: o.role,
    JWT_SECRET: o.jwtSecret,
    ENCRYPTION_KEY: o.encryptionKey,
    ALLOW_PRIVATE_DESTINATIONS: 'true',
    // The load generator is one client on one source: the per-source limit would measure itself.
    RATE_LIMIT_WEBHOOK_PER_MINUTE: '0',
    WEB_DIST: join(o.dir, 'no-web'),
  };
  // Server settings to try (e.g. WORKER_DB_POOL_SIZE=16 npm run bench ...) reach every server process.
  for (const name of TUNABLES) if (process.env[name] !== undefined) env[name] = process.env[name];
  if (o.databaseUrl) env.DATABASE_URL = o.databaseUrl;
  if (o.owner) Object.assign(env, { OWNER_LOGIN: OWNER.login, OWNER_PASSWORD: OWNER.password });
  if (o.env) Object.assign(env, o.env);
  const child = spawn(process.execPath, [...(o.nodeArgs ?? []), ...SERVER_NODE_FLAGS, 'dist/main.js'], {
    cwd: SERVER_DIR,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.pipe(out, { end: false });
  child.stderr!.pipe(out, { end: false });
  const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
  const url = `http://127.0.0.1:${o.port}`;
  const clusterDir = o.databaseUrl ? undefined : clusterDirOf(dataDir);
  const proc: ServerProcess = {
    name: o.name,
    url,
    dataDir,
    clusterDir,
    child,
    exited,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(killer);
    },
    async kill9() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
  onCleanup(async () => {
    await proc.stop();
    // The app stops its cluster on SIGTERM; one killed (or SIGKILLed after a hung stop) leaves it running.
    if (clusterDir && (await stopLeftoverPostgres(clusterDir)))
      log(`${o.name}: stopped its leftover embedded PostgreSQL`);
  });
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `${o.name} exited with ${child.exitCode ?? child.signalCode}:\n${readFileSync(logPath, 'utf8').slice(-3000)}`,
      );
    }
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return proc;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${o.name} did not become healthy in 90 s (log: ${logPath})`);
    await sleep(200);
  }
}

/** 32 random bytes as 64 hex characters: a JWT_SECRET or an ENCRYPTION_KEY. */
export const newSecret = () => randomBytes(32).toString('hex');
export const newRunId = () => `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;

/** One JSON call to the API (a bearer token or none); throws unless 2xx. */
export async function api(base: string, token: string | null, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

export interface Route {
  token: string;
  hookUrl: string;
  sourceId: string;
  destinationId: string;
}

/** Signs in as the owner and creates a webhook source routed to one http destination at `destinationUrl`. */
export async function createRoute(base: string, destinationUrl: string): Promise<Route> {
  const { accessToken } = await api(base, null, 'POST', '/api/auth/login', OWNER);
  const token = String(accessToken);
  const destination = await api(base, token, 'POST', '/api/integrations', {
    type: 'http',
    name: 'Bench receiver',
    settings: { url: destinationUrl },
  });
  const source = await api(base, token, 'POST', '/api/integrations', {
    type: 'webhook',
    name: 'Bench form',
    destination: [destination._id],
  });
  const hook = await api(base, token, 'GET', `/api/integrations/${source._id}/generateHook`);
  return {
    token: String(hook.token),
    hookUrl: `${base}/api/hooks/in/${hook.token}`,
    sourceId: String(source._id),
    destinationId: String(destination._id),
  };
}

/** The server version of the PostgreSQL a run uses (the shared server or the embedded one). */
export async function serverVersion(databaseUrl: string): Promise<string> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    return String((await c.query('show server_version')).rows[0]?.server_version);
  } finally {
    await c.end();
  }
}

/** The machine and its load right now, for the record. */
export function machine(): Record<string, string> {
  return {
    cpu: `${cpus().length} × ${cpus()[0]?.model ?? 'unknown'}`,
    memory: `${(totalmem() / 2 ** 30).toFixed(1)} GiB total, ${(freemem() / 2 ** 30).toFixed(1)} GiB free`,
    node: process.version,
    loadavg: loadavg()
      .map((l) => l.toFixed(2))
      .join(' '),
  };
}

/** Percentiles of a list of numbers (nearest rank). */
export function percentiles(values: number[]): Record<'n' | 'p50' | 'p90' | 'p97_5' | 'p99' | 'max' | 'mean', number> {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) =>
    sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]! : 0;
  const mean = sorted.length ? sorted.reduce((s, v) => s + v, 0) / sorted.length : 0;
  return {
    n: sorted.length,
    p50: at(0.5),
    p90: at(0.9),
    p97_5: at(0.975),
    p99: at(0.99),
    max: sorted.at(-1) ?? 0,
    mean: Math.round(mean * 10) / 10,
  };
}

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
  });
}

/** One query on a connection of its own. */
export async function queryOnce(databaseUrl: string, query: string): Promise<Record<string, unknown>[]> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    return (await c.query(query)).rows;
  } finally {
    await c.end();
  }
}

/** The statements that took the most database time (`pg_stat_statements`, --engine owned). */
export function statementCosts(databaseUrl: string, limit = 12): Promise<Record<string, unknown>[]> {
  return queryOnce(
    databaseUrl,
    `select calls, round(total_exec_time)::int as total_ms, round(mean_exec_time::numeric, 3)::float as mean_ms,
            rows, left(regexp_replace(query, '\\s+', ' ', 'g'), 160) as query
       from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())
      order by total_exec_time desc limit ${limit}`,
  );
}

/** The database role the worker processes of a split `owned` run sign in as: their statements are told apart by it. */
export const WORKER_ROLE = 'leadrelay_worker';

/** `url` signed in as the worker role (created here, a superuser like the servers' own). */
export async function workerRoleUrl(url: string): Promise<string> {
  await queryOnce(
    url,
    `do $$ begin if not exists (select from pg_roles where rolname = '${WORKER_ROLE}') then create role ${WORKER_ROLE} login superuser; end if; end $$`,
  );
  const u = new URL(url);
  u.username = WORKER_ROLE;
  u.password = '';
  return u.toString();
}

/** Statement time (`pg_stat_statements`) of one role since the last reset: total ms, calls, and the top statements. */
export async function roleStatementTime(databaseUrl: string, role: string, limit = 6) {
  const rows = await queryOnce(
    databaseUrl,
    `select calls::int, total_exec_time::float as total_ms, left(regexp_replace(query, '\\s+', ' ', 'g'), 120) as query
       from pg_stat_statements s join pg_roles r on r.oid = s.userid
      where r.rolname = '${role}' and dbid = (select oid from pg_database where datname = current_database())
      order by total_exec_time desc`,
  );
  const totalMs = rows.reduce((s, r) => s + Number(r.total_ms), 0);
  const calls = rows.reduce((s, r) => s + Number(r.calls), 0);
  return { totalMs, calls, top: rows.slice(0, limit) };
}
