// The yardstick for ingest (issue 18): how many durable single-row inserts of a 1 KB row per
// transaction PostgreSQL itself takes from 100 clients, with pgbench and a custom script, on the
// bench's database and server settings. Ingest is reported as a ratio to it, measured in the same
// invocation (`ingest --with-ceiling`), because the machine's share of CPU changes from hour to hour.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { log } from './harness';

export interface CeilingOptions {
  /** The database to run in (a table of its own is made and dropped). */
  databaseUrl: string;
  clients: number;
  duration: number;
  /** Scratch folder for the pgbench script. */
  dir: string;
}

export interface CeilingResult {
  /** Committed single-row insert transactions per second (pgbench's tps, without connection time). */
  insertsPerS: number;
  latencyMsAverage: number;
  clients: number;
  threads: number;
  durationS: number;
  rowBytes: number;
  pgbench: string;
  loadAverage: { before: string; after: string };
}

/** pgbench's own binary: PGBENCH, else the one on PATH (Debian: postgresql-client's wrapper). */
const PGBENCH = process.env.PGBENCH ?? 'pgbench';
const ROW_BYTES = 1024;
const TABLE = 'bench_ceiling_rows';

/** A 1 KB JSON document like a lead's (UTF-8 bytes), the same for every transaction. */
function rowLiteral(): string {
  const base = { name: 'Марта Шевченко', phone: '+380675554433', email: 'marta@example.com', comment: '' };
  const size = (comment: string) => Buffer.byteLength(JSON.stringify({ ...base, comment }));
  const comment = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(30).slice(0, ROW_BYTES - size(''));
  return JSON.stringify({ ...base, comment }).replaceAll("'", "''");
}

/** `postgres://user@host:port/db?host=/socket` → pgbench's connection arguments and environment. */
function connectionArgs(databaseUrl: string): { args: string[]; env: Record<string, string> } {
  const url = new URL(databaseUrl);
  const host = url.searchParams.get('host') ?? url.hostname;
  const args = [
    '-h',
    host,
    '-p',
    url.port || url.searchParams.get('port') || '5432',
    '-U',
    decodeURIComponent(url.username || 'postgres'),
  ];
  const env: Record<string, string> = {};
  if (url.password) env.PGPASSWORD = decodeURIComponent(url.password);
  return { args: [...args, decodeURIComponent(url.pathname.slice(1))], env };
}

function runPgbench(args: string[], env: Record<string, string>): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(PGBENCH, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', (error) =>
      reject(
        new Error(
          `pgbench could not be started (${(error as NodeJS.ErrnoException).code ?? error.message}): install PostgreSQL's client tools or set PGBENCH`,
        ),
      ),
    );
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

export async function runCeiling(o: CeilingOptions): Promise<CeilingResult> {
  const c = new pg.Client({ connectionString: o.databaseUrl });
  await c.connect();
  try {
    const { rows } = await c.query<{ free: number }>(
      `select current_setting('max_connections')::int - (select count(*) from pg_stat_activity)::int as free`,
    );
    // The superuser's reserved slots count too; pgbench as a normal user would need them free.
    if (rows[0]!.free < o.clients) {
      throw new Error(
        `the PostgreSQL server has ${rows[0]!.free} free connections, pgbench needs ${o.clients}: stop other clients or raise max_connections`,
      );
    }
    await c.query(`drop table if exists ${TABLE}`);
    // The shape of a lead row: a generated key, a timestamp and the document.
    await c.query(
      `create table ${TABLE} (id bigserial primary key, created_at timestamptz not null default now(), body jsonb not null)`,
    );
  } finally {
    await c.end();
  }
  const script = join(o.dir, 'ceiling.sql');
  writeFileSync(script, `insert into ${TABLE} (body) values ('${rowLiteral()}');\n`);
  const { args, env } = connectionArgs(o.databaseUrl);
  const threads = 2;
  const loadBefore = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  log(
    `ceiling: pgbench, ${o.clients} clients, ${o.duration} s, one ${ROW_BYTES}-byte row per transaction; load ${loadBefore}`,
  );
  const run = await runPgbench(
    [
      '-n',
      '-M',
      'prepared',
      '-c',
      String(o.clients),
      '-j',
      String(threads),
      '-T',
      String(o.duration),
      '-f',
      script,
      ...args,
    ],
    env,
  );
  const loadAfter = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  const cleanup = new pg.Client({ connectionString: o.databaseUrl });
  await cleanup.connect();
  await cleanup.query(`drop table if exists ${TABLE}`).finally(() => cleanup.end());
  const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(run.output);
  const latency = /latency average = ([\d.]+) ms/.exec(run.output);
  if (run.code !== 0 || !tps) throw new Error(`pgbench failed (exit ${run.code}):\n${run.output.slice(-2000)}`);
  const version =
    /pgbench \(PostgreSQL\) ([\d.]+)/.exec((await runPgbench(['--version'], {})).output)?.[1] ?? 'unknown';
  return {
    insertsPerS: Math.round(Number(tps[1]) * 10) / 10,
    latencyMsAverage: Number(latency?.[1] ?? Number.NaN),
    clients: o.clients,
    threads,
    durationS: o.duration,
    rowBytes: ROW_BYTES,
    pgbench: version,
    loadAverage: { before: loadBefore, after: loadAfter },
  };
}
