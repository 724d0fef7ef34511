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
  queryOnce,
  type ServerProcess,
  scratchDir,
  serverVersion,
  startServer,
  statementCosts,
  tunables,
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
  /** Server processes, each taking an equal share of the connections (scale-out, issue 18 part 4). */
  apis: number;
  /** Run the pgbench yardstick (bench/src/ceiling.ts) on the same database first and report the ratio (pg only). */
  withCeiling: boolean;
}

/**
 * One result from each server's autocannon: counts add up, rates add up, and the latency
 * percentiles are the worst of the runs (each run's own; a merged histogram is not available).
 */
function merge(results: Result[]): Result {
  if (results.length === 1) return results[0]!;
  const sum = (f: (r: Result) => number) => results.reduce((a, r) => a + f(r), 0);
  const worst = (f: (r: Result) => number) => Math.max(...results.map(f));
  const statusCodeStats: Result['statusCodeStats'] = {};
  for (const r of results) {
    for (const [code, v] of Object.entries(r.statusCodeStats ?? {})) {
      statusCodeStats[code] = { count: (statusCodeStats[code]?.count ?? 0) + Number(v.count) };
    }
  }
  const first = results[0]!;
  return {
    ...first,
    duration: worst((r) => r.duration),
    requests: {
      ...first.requests,
      average: sum((r) => r.requests.average),
      p50: sum((r) => r.requests.p50),
      min: sum((r) => r.requests.min),
      max: sum((r) => r.requests.max),
    },
    latency: {
      ...first.latency,
      p50: worst((r) => r.latency.p50),
      p97_5: worst((r) => r.latency.p97_5),
      p99: worst((r) => r.latency.p99),
      max: worst((r) => r.latency.max),
      average:
        sum((r) => r.latency.average * r.requests.total) /
        Math.max(
          1,
          sum((r) => r.requests.total),
        ),
    },
    '2xx': sum((r) => r['2xx']),
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    statusCodeStats,
  };
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
  if (o.engine === 'owned') await queryOnce(serverDatabaseUrl!, 'create extension if not exists pg_stat_statements');
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
  if (o.apis > 1 && o.engine === 'embedded')
    throw new Error('--apis needs --engine pg or owned: the embedded PostgreSQL belongs to one process');
  const jwtSecret = newSecret();
  const encryptionKey = newSecret();
  const servers: ServerProcess[] = [];
  for (let i = 0; i < o.apis; i++) {
    servers.push(
      await startServer({
        name: `server-${o.role}${o.apis > 1 ? i + 1 : ''}`,
        role: o.role,
        port: await freePort(),
        dir,
        databaseUrl: serverDatabaseUrl,
        jwtSecret,
        encryptionKey,
        owner: i === 0,
        nodeArgs: o.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : [],
      }),
    );
  }
  const server = servers[0]!;
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
  // One autocannon per server process, the connections shared out; the results are merged.
  const run = async (duration: number) => merge(await Promise.all(servers.map((srv, i) => runOne(srv, i, duration))));
  const runOne = (srv: ServerProcess, i: number, duration: number) =>
    autocannon({
      url: srv.url,
      connections: Math.floor(o.connections / o.apis) + (i < o.connections % o.apis ? 1 : 0),
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
  if (o.engine === 'owned') await queryOnce(databaseUrl, 'select pg_stat_statements_reset()');
  const sampler = sampleActivity(databaseUrl);
  const clusterDir = server.clusterDir;
  const memory = sampleMemory(() => ({
    servers: servers.map((srv) => ({ name: srv.name, pid: srv.child.pid })),
    postgresPids: clusterDir ? () => clusterPids(clusterDir) : undefined,
  }));
  const loadBefore = loadavg().map((l) => l.toFixed(2));
  const serversCpu = () => servers.reduce((sum, srv) => sum + cpuSeconds(srv.child.pid), 0);
  const cpuServer0 = serversCpu();
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
    server: Math.round((serversCpu() - cpuServer0) * 10) / 10,
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
  const topStatements = o.engine === 'owned' ? await statementCosts(databaseUrl) : undefined;
  for (const srv of servers) await srv.stop();
  const summary = {
    bench: 'ingest',
    engine: o.engine,
    postgres,
    role: o.role,
    processes: o.apis,
    settings: tunables(),
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
