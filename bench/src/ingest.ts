// (a) Ingest throughput: autocannon against the webhook URL with 1–2 KB leads, each with its own
// Idempotency-Key and event id, so dedupe never shortcuts the write.
import { readdirSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { startHttpEmulator } from '@leadrelay/connectors/http/emulator';
import autocannon, { type Result } from 'autocannon';
import pg from 'pg';
import { type CeilingResult, runCeiling } from './ceiling';
import { clusterPids, embeddedDatabaseUrl } from './embedded';
import {
  benchDatabase,
  createRoute,
  type Engine,
  freePort,
  log,
  machine,
  newRunId,
  newSecret,
  onCleanup,
  scratchDir,
  serverVersion,
  startServer,
} from './harness';
import { LeadPool } from './leads';
import { cpuSeconds, sampleActivity, sampleMemory } from './observe';
import { summarizeProfile } from './profile';

export interface IngestOptions {
  engine: Engine;
  /** api needs --engine pg (the embedded PostgreSQL belongs to one ROLE=all process). */
  role: 'api' | 'all';
  connections: number;
  duration: number;
  warmup: number;
  cpuProf: boolean;
  /** Per-database PostgreSQL settings for a diagnostic run, e.g. synchronous_commit=off. */
  pgSettings: string[];
  /** Run the pgbench yardstick (bench/src/ceiling.ts) on the same database first and report the ratio (pg only). */
  withCeiling: boolean;
}

async function statements(databaseUrl: string, query: string): Promise<Record<string, unknown>[]> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    return (await c.query(query)).rows;
  } finally {
    await c.end();
  }
}

function figures(r: Result) {
  const statuses = Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([k, v]) => [k, Number(v.count)]));
  return {
    durationS: r.duration,
    requestsPerS: { mean: r.requests.average, p50: r.requests.p50, min: r.requests.min, max: r.requests.max },
    latencyMs: {
      p50: r.latency.p50,
      p97_5: r.latency.p97_5,
      p99: r.latency.p99,
      max: r.latency.max,
      mean: r.latency.average,
    },
    total2xx: r['2xx'],
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    statuses,
    accepted202PerS: Math.round(((statuses['202'] ?? 0) / r.duration) * 10) / 10,
  };
}

export async function runIngest(o: IngestOptions): Promise<boolean> {
  const runId = newRunId();
  const dir = scratchDir(runId);
  const before = machine();
  log('machine', before);
  const serverDatabaseUrl = await benchDatabase(o.engine, runId, dir, o.pgSettings);
  if (o.engine === 'owned') await statements(serverDatabaseUrl!, 'create extension if not exists pg_stat_statements');
  let ceiling: CeilingResult | undefined;
  if (o.withCeiling) {
    if (!serverDatabaseUrl) throw new Error('--with-ceiling needs --engine pg or owned');
    ceiling = await runCeiling({ databaseUrl: serverDatabaseUrl, clients: o.connections, duration: o.duration, dir });
    log(`ceiling: ${ceiling.insertsPerS} single-row inserts/s (pgbench ${ceiling.pgbench})`);
  }
  const emulator = await startHttpEmulator({ maxLog: 1_000_000 });
  onCleanup(() => emulator.close());
  emulator.setLatency(50);
  const profDir = join(dir, 'prof');
  const server = await startServer({
    name: `server-${o.role}`,
    role: o.role,
    port: await freePort(),
    dir,
    databaseUrl: serverDatabaseUrl,
    jwtSecret: newSecret(),
    encryptionKey: newSecret(),
    owner: true,
    nodeArgs: o.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : [],
  });
  // The bench reads the same database: its own on the shared server, or the embedded one's socket.
  const databaseUrl = serverDatabaseUrl ?? embeddedDatabaseUrl(server.dataDir);
  const postgres = await serverVersion(databaseUrl);
  const route = await createRoute(server.url, emulator.hookUrl);
  log(`server ${o.role} on ${o.engine} up at ${server.url}; webhook ${route.hookUrl.replace(route.token, '<token>')}`);

  const pool = new LeadPool(1000, 42);
  const [minBytes, maxBytes] = pool.minMaxBytes(runId);
  log(`lead bodies: ${minBytes}–${maxBytes} bytes, average ${pool.averageBytes(runId)}`);
  let seq = 0;
  const path = new URL(route.hookUrl).pathname;
  const run = (duration: number) =>
    autocannon({
      url: server.url,
      connections: o.connections,
      duration,
      timeout: 10,
      requests: [
        {
          method: 'POST',
          path,
          setupRequest(request) {
            seq += 1;
            request.headers = { 'content-type': 'application/json', 'idempotency-key': `${runId}-${seq}` };
            request.body = pool.body(runId, seq);
            return request;
          },
        },
      ],
    });

  if (o.warmup > 0) {
    log(`warm-up ${o.warmup} s (not counted)`);
    await run(o.warmup);
  }
  const warmupRequests = seq;
  const deliveredBefore = emulator.records.length;
  const pgBackends = new Set<number>();
  {
    const c = new pg.Client({ connectionString: databaseUrl });
    await c.connect();
    const { rows } = await c.query<{ pid: number }>(
      `select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
    );
    for (const r of rows) pgBackends.add(r.pid);
    await c.end();
  }
  if (o.engine === 'owned') await statements(databaseUrl, 'select pg_stat_statements_reset()');
  const sampler = sampleActivity(databaseUrl);
  const clusterDir = server.clusterDir;
  const memory = sampleMemory(() => ({
    servers: [{ name: server.name, pid: server.child.pid }],
    postgresPids: clusterDir ? () => clusterPids(clusterDir) : undefined,
  }));
  const loadBefore = loadavg().map((l) => l.toFixed(2));
  const cpuServer0 = cpuSeconds(server.child.pid);
  const cpuPg0 = [...pgBackends].reduce((s, pid) => s + cpuSeconds(pid), 0);
  // Embedded: every process of the cluster (checkpointer, WAL writer, … too), not only the backends.
  const clusterCpu0 = new Map((clusterDir ? clusterPids(clusterDir) : []).map((pid) => [pid, cpuSeconds(pid)]));
  const cpuSelf0 = process.cpuUsage();
  log(`run: ${o.connections} connections, ${o.duration} s, load average ${loadBefore.join(' ')}`);
  const result = await run(o.duration);
  const cpuSelf = process.cpuUsage(cpuSelf0);
  const memoryReport = memory.stop();
  const activity = await sampler.stop();
  for (const pid of sampler.backendPids) pgBackends.add(pid);
  const clusterCpu = clusterDir
    ? clusterPids(clusterDir).reduce((s, pid) => s + cpuSeconds(pid) - (clusterCpu0.get(pid) ?? 0), 0)
    : undefined;
  const cpu = {
    server: Math.round((cpuSeconds(server.child.pid) - cpuServer0) * 10) / 10,
    postgresBackends: Math.round(([...pgBackends].reduce((s, pid) => s + cpuSeconds(pid), 0) - cpuPg0) * 10) / 10,
    embeddedPostgresAll: clusterCpu === undefined ? undefined : Math.round(clusterCpu * 10) / 10,
    loadGenerator: Math.round(((cpuSelf.user + cpuSelf.system) / 1e6) * 10) / 10,
    available: cpus().length * result.duration,
  };
  const loadAfter = loadavg().map((l) => l.toFixed(2));
  const delivered = emulator.records.length - deliveredBefore;

  let stored: Record<string, number>;
  {
    const c = new pg.Client({ connectionString: databaseUrl });
    await c.connect();
    const { rows } = await c.query<Record<string, string>>(
      `select (select count(*) from leads) as leads, (select count(*) from hooks) as hooks,
              (select count(*) from deliveries) as deliveries,
              (select count(*) from deliveries where status = 'delivered') as delivered`,
    );
    stored = Object.fromEntries(Object.entries(rows[0]!).map(([k, v]) => [k, Number(v)]));
    await c.end();
  }
  const topStatements =
    o.engine === 'owned'
      ? await statements(
          databaseUrl,
          `select calls, round(total_exec_time)::int as total_ms, round(mean_exec_time::numeric, 3)::float as mean_ms,
                  rows, left(regexp_replace(query, '\\s+', ' ', 'g'), 160) as query
             from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())
            order by total_exec_time desc limit 12`,
        )
      : undefined;
  await server.stop();
  const summary = {
    bench: 'ingest',
    engine: o.engine,
    postgres,
    role: o.role,
    connections: o.connections,
    pgSettings: o.pgSettings.length ? o.pgSettings : undefined,
    bodyBytes: { min: minBytes, max: maxBytes, average: pool.averageBytes(runId) },
    machine: before,
    loadAverage: { before: loadBefore.join(' '), after: loadAfter.join(' ') },
    ...figures(result),
    requestsSent: seq - warmupRequests,
    deliveredDuringRun: o.role === 'all' ? delivered : undefined,
    storedAfterRun: stored,
    cpuSeconds: cpu,
    memory: memoryReport,
    pgActivity: activity,
    topStatements,
    ceiling,
    ratioToCeiling: ceiling
      ? Math.round((figures(result).accepted202PerS / ceiling.insertsPerS) * 1000) / 1000
      : undefined,
  };
  console.info(JSON.stringify(summary, null, 2));
  if (ceiling) {
    console.info(
      `ingest ${summary.accepted202PerS} accepted leads/s (p99 ${summary.latencyMs.p99} ms) = ${Math.round((summary.ratioToCeiling ?? 0) * 1000) / 10} % of the yardstick, ${ceiling.insertsPerS} single-row inserts/s`,
    );
  }
  if (o.cpuProf) {
    const files = readdirSync(profDir).filter((f) => f.endsWith('.cpuprofile'));
    for (const f of files) console.info(summarizeProfile(join(profDir, f), 25, Math.ceil(result.duration)));
  }
  return result.errors === 0 && result.non2xx === 0;
}
