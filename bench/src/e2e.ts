// (b) End to end: leads at a steady rate to a webhook source whose destination is the http
// emulator (in this process, answering after 50 ms); latency from our receipt to the emulator.
// (c) With --crash: the same with separate api and worker processes, the worker killed with
// SIGKILL every few seconds and restarted; every accepted lead must reach the emulator once.
import { readdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startHttpEmulator } from '@leadrelay/connectors/http/emulator';
import pg from 'pg';
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
  percentiles,
  queryOnce,
  roleStatementTime,
  type ServerProcess,
  scratchDir,
  serverVersion,
  startServer,
  statementCosts,
  tunables,
  WORKER_ROLE,
  workerRoleUrl,
} from './harness';
import {
  deliveredPerSWhileSending,
  LeadLoad,
  recordsBySeq as recordsBySeqOf,
  sendToReceipt,
  benchSeq as seqOf,
  waitForRecords,
} from './load';
import { cpuSeconds, sampleMemory } from './observe';
import { summarizeProfile } from './profile';

export interface E2eOptions {
  engine: Engine;
  /** Separate ROLE=api and ROLE=worker processes (--engine pg only). */
  split: boolean;
  rate: number;
  duration: number;
  latencyMs: number;
  /** Worker processes when split. */
  workers: number;
  /** API processes when split; leads go to each in turn (scale-out, issue 18 part 4). */
  apis: number;
  /**
   * After the steady load is delivered: this many leads posted as fast as the APIs take them
   * (BURST_CONCURRENCY requests at a time), and the time until the last one is delivered.
   */
  thenBurst: number;
  /** Profile every server process (--cpu-prof) and print where each spent its time. */
  cpuProf?: boolean;
  /** Kill -9 a worker every `killEvery` seconds (implies split). */
  crash: boolean;
  killEvery: number;
  /** How long to wait after the load for the last deliveries (the lease of a killed worker is 30 s). */
  drainTimeout: number;
  /**
   * The emulator honours no Idempotency-Key (a plain receiver, as many are): every request it
   * answers makes a record, so a repeat after a crash shows as a duplicate, reported, not failed.
   */
  plain?: boolean;
}

/** Requests in flight during the burst: as many as ingest's connections. */
const BURST_CONCURRENCY = 100;

interface BurstFigures {
  leads: number;
  accepted: number;
  postedInMs: number;
  acceptedPerS: number;
  /** From the first post of the burst to the emulator's acknowledgement of the last lead. */
  lastDeliveredAfterMs: number | null;
  deliveredPerS: number;
}

export async function runE2e(o: E2eOptions): Promise<boolean> {
  return (await measureE2e(o, true)).ok;
}

/** A run's figures as `e2e` prints them (`peer` puts them beside the peer's). */
export type E2eSummary = Awaited<ReturnType<typeof measureE2e>>['summary'];

/** One e2e run: its summary, printed as JSON when `print`, and whether nothing was lost or recorded twice. */
export async function measureE2e(o: E2eOptions, print: boolean) {
  if ((o.split || o.crash) && o.engine === 'embedded') {
    throw new Error(
      'separate api and worker processes (--split, crash) need --engine pg: the embedded PostgreSQL belongs to one ROLE=all process',
    );
  }
  const runId = newRunId();
  const dir = scratchDir(runId);
  log('machine', machine());
  const serverDatabaseUrl = await benchDatabase(o.engine, runId, dir);
  if (o.engine === 'owned') await queryOnce(serverDatabaseUrl!, 'create extension if not exists pg_stat_statements');
  const emulator = await startHttpEmulator({ maxLog: 1_000_000, dedupe: !o.plain });
  onCleanup(() => emulator.close());
  emulator.setLatency(o.latencyMs);
  const jwtSecret = newSecret();
  const encryptionKey = newSecret();
  const split = o.split || o.crash;

  if (o.apis > 1 && !split) throw new Error('--apis needs --split: separate api and worker processes');
  const profDir = join(dir, 'prof');
  const nodeArgs = (name: string) => (o.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${join(profDir, name)}`] : []);
  const api = await startServer({
    name: split ? (o.apis > 1 ? 'api1' : 'api') : 'all',
    nodeArgs: nodeArgs('api1'),
    role: split ? 'api' : 'all',
    port: await freePort(),
    dir,
    databaseUrl: serverDatabaseUrl,
    jwtSecret,
    encryptionKey,
    owner: true,
  });
  const apis = [api];
  for (let i = 1; i < o.apis; i++) {
    apis.push(
      await startServer({
        name: `api${i + 1}`,
        nodeArgs: nodeArgs(`api${i + 1}`),
        role: 'api',
        port: await freePort(),
        dir,
        databaseUrl: serverDatabaseUrl,
        jwtSecret,
        encryptionKey,
      }),
    );
  }
  // The bench reads the same database: its own on the shared server, or the embedded one's socket.
  const databaseUrl = serverDatabaseUrl ?? embeddedDatabaseUrl(api.dataDir);
  const postgres = await serverVersion(databaseUrl);
  const workerPorts = await Promise.all(Array.from({ length: split ? o.workers : 0 }, () => freePort()));
  // On the bench's own cluster the workers sign in as a role of their own: their statement time is theirs.
  const measureCosts = o.engine === 'owned' && !o.crash;
  const workerDatabaseUrl = measureCosts && split ? await workerRoleUrl(serverDatabaseUrl!) : serverDatabaseUrl;
  const startWorker = (i: number) =>
    startServer({
      name: `worker${i + 1}`,
      nodeArgs: nodeArgs(`worker${i + 1}`),
      role: 'worker',
      port: workerPorts[i]!,
      dir,
      databaseUrl: workerDatabaseUrl,
      jwtSecret,
      encryptionKey,
    });
  const workers: ServerProcess[] = [];
  for (let i = 0; i < workerPorts.length; i++) workers.push(await startWorker(i));
  const route = await createRoute(api.url, emulator.hookUrl);
  const processes = split ? `${o.apis} api + ${o.workers} worker${o.workers > 1 ? 's' : ''}` : 'all';
  log(`${processes} on ${o.engine}; emulator ${emulator.hookUrl} answering after ${o.latencyMs} ms`);
  // The same source on every API process: its path on each one's origin.
  const hookUrls = apis.map((a) => new URL(new URL(route.hookUrl).pathname, a.url).toString());

  const load = new LeadLoad(runId, hookUrls);
  const { pool, sent } = load;
  const send = (seq: number) => load.send(seq);
  const total = Math.round(o.rate * o.duration);

  // Crash loop: SIGKILL the worker at random moments 0.5–1.5 × killEvery apart, restart it at once.
  let kills = 0;
  /** Restart of a killed worker: spawn to its first 200 from /api/health. */
  const restartMs: number[] = [];
  let loadRunning = true;
  const crashLoop = (async () => {
    if (!o.crash) return;
    while (loadRunning && kills < 1000) {
      await sleep(o.killEvery * 1000 * (0.5 + Math.random()));
      if (!loadRunning) break;
      const i = Math.floor(Math.random() * workers.length);
      await workers[i]!.kill9();
      kills += 1;
      log(`kill -9 #${kills}: ${workers[i]!.name} (pid ${workers[i]!.child.pid}); restarting`);
      const restartAt = performance.now();
      workers[i] = await startWorker(i);
      restartMs.push(Math.round(performance.now() - restartAt));
    }
  })();

  const clusterDir = api.clusterDir;
  const memory = sampleMemory(() => ({
    servers: [...apis, ...workers].map((s) => ({ name: s.name, pid: s.child.pid })),
    postgresPids: clusterDir ? () => clusterPids(clusterDir) : undefined,
  }));
  const loadBefore = loadavg().map((l) => l.toFixed(2));
  log(`sending ${o.rate}/s for ${o.duration} s (${total} leads), load average ${loadBefore.join(' ')}`);
  if (measureCosts) await queryOnce(databaseUrl, 'select pg_stat_statements_reset()');
  const cpuOf = (list: ServerProcess[]) => list.reduce((sum, s) => sum + cpuSeconds(s.child.pid), 0);
  const cpuBefore = { apis: cpuOf(apis), workers: cpuOf(workers) };
  const { wallStart, sendSeconds } = await load.steady(o.rate, o.duration);
  loadRunning = false;
  await crashLoop;
  const loadAfterSend = loadavg().map((l) => l.toFixed(2));

  const accepted = load.answered(202);
  /** Leads offered by the steady load (the burst's come after). */
  const steadySent = sent.size;
  log(`load done in ${sendSeconds.toFixed(1)} s: ${accepted.length} accepted; waiting for deliveries`);
  const drainStart = Date.now();
  const missing = await waitForRecords(emulator.records, accepted, o.drainTimeout);
  if (missing > 0) log(`gave up waiting after ${o.drainTimeout} s: ${missing} not delivered`);
  const drainSeconds = (Date.now() - drainStart) / 1000;
  const costs = await steadyCosts();

  // The burst: everything at once (BURST_CONCURRENCY in flight), then until the last is delivered.
  const burstSeqs: number[] = [];
  let burst: BurstFigures | undefined;
  if (o.thenBurst > 0) {
    const first = total + 1_000_000;
    log(`burst: ${o.thenBurst} leads, ${BURST_CONCURRENCY} requests at a time`);
    const burstStart = Date.now();
    let cursor = 0;
    await Promise.all(
      Array.from({ length: BURST_CONCURRENCY }, async () => {
        while (cursor < o.thenBurst) {
          const seq = first + cursor++;
          burstSeqs.push(seq);
          await send(seq);
        }
      }),
    );
    const postedMs = Date.now() - burstStart;
    const burstAccepted = burstSeqs.filter((seq) => sent.get(seq)?.status === 202);
    await waitForRecords(emulator.records, burstAccepted, o.drainTimeout - (Date.now() - burstStart) / 1000, 100);
    const inBurst = new Set(burstSeqs);
    const acks = emulator.records.filter((r) => inBurst.has(seqOf(r.body) ?? -1)).map((r) => Date.parse(r.createdAt));
    burst = {
      leads: o.thenBurst,
      accepted: burstAccepted.length,
      postedInMs: postedMs,
      acceptedPerS: Math.round((burstAccepted.length / postedMs) * 10_000) / 10,
      lastDeliveredAfterMs: acks.length ? Math.max(...acks) - burstStart : null,
      deliveredPerS: acks.length ? Math.round((acks.length / (Math.max(...acks) - burstStart)) * 10_000) / 10 : 0,
    };
    log(`burst: posted in ${postedMs} ms, last delivered ${burst.lastDeliveredAfterMs} ms after the first post`);
  }
  const memoryReport = memory.stop();

  /**
   * What the steady load cost, from the first post to the last delivery (before any burst): CPU of
   * the server processes per lead (from /proc) and, on the bench's own cluster with separate
   * processes, the workers' statement time (pg_stat_statements, their own role) per delivery.
   */
  async function steadyCosts() {
    const n = accepted.length;
    if (!n) return undefined;
    const perLead = (seconds: number) => Math.round((seconds * 1e6) / n) / 1000;
    const apiCpu = cpuOf(apis) - cpuBefore.apis;
    if (!split) return { leads: n, processCpuMsPerLead: perLead(apiCpu) };
    const figures: Record<string, unknown> = {
      leads: n,
      apiCpuMsPerLead: perLead(apiCpu),
      workerCpuMsPerDelivery: perLead(cpuOf(workers) - cpuBefore.workers),
    };
    if (measureCosts) {
      const statements = await roleStatementTime(databaseUrl, WORKER_ROLE);
      figures.workerStatementMsPerDelivery = Math.round((statements.totalMs * 1000) / n) / 1000;
      figures.workerStatementsPerDelivery = Math.round((statements.calls * 1000) / n) / 1000;
      figures.workerTopStatements = statements.top;
    }
    return figures;
  }

  // Receipt times from the database (the lead's created_at is stamped when ingest starts).
  const createdAt = new Map<string, number>();
  let deliveryStates: Record<string, number>;
  {
    const c = new pg.Client({ connectionString: databaseUrl });
    await c.connect();
    const { rows } = await c.query<{ id: string; created_at: Date }>('select id, created_at from leads');
    for (const r of rows) createdAt.set(r.id, r.created_at.getTime());
    const states = await c.query<{ status: string; n: string; attempts: string }>(
      'select status, count(*) as n, sum(attempts) as attempts from deliveries group by status',
    );
    deliveryStates = Object.fromEntries(states.rows.map((r) => [r.status, Number(r.n)]));
    const attempts = states.rows.reduce((s, r) => s + Number(r.attempts), 0);
    deliveryStates.claims = attempts;
    await c.end();
  }
  const topStatements = o.engine === 'owned' ? await statementCosts(databaseUrl) : undefined;
  for (const w of workers) await w.stop();
  for (const a of apis) await a.stop();

  // Per key: how many requests the emulator saw (attempts) and the record it made.
  const hitsByKey = new Map<string, number>();
  for (const r of emulator.requests) {
    if (r.idempotencyKey) hitsByKey.set(r.idempotencyKey, (hitsByKey.get(r.idempotencyKey) ?? 0) + 1);
  }
  const recordsBySeq = recordsBySeqOf(emulator.records);
  const lost = accepted.filter((s) => !recordsBySeq.has(s));
  const duplicateRecords = [...recordsBySeq].filter(([, list]) => list.length > 1).map(([seq]) => seq);
  const repeatedKeys = [...hitsByKey].filter(([, n]) => n > 1);
  const repeatedRequests = repeatedKeys.reduce((s, [, n]) => s + n - 1, 0);

  const fromReceipt: number[] = [];
  const answer: number[] = [];
  const burstFromReceipt: number[] = [];
  const lostInBurst = burstSeqs.filter((seq) => sent.get(seq)?.status === 202 && !recordsBySeq.has(seq));
  for (const seq of burstSeqs) {
    const record = recordsBySeq.get(seq)?.[0];
    const leadId = record?.idempotencyKey?.split(':')[0];
    const receivedAt = leadId ? createdAt.get(leadId) : undefined;
    if (record && receivedAt !== undefined) burstFromReceipt.push(Date.parse(record.createdAt) - receivedAt);
  }
  for (const seq of accepted) {
    const s = sent.get(seq)!;
    answer.push(s.answeredAt! - s.sentAt);
    const record = recordsBySeq.get(seq)?.[0];
    if (!record) continue;
    const ackAt = Date.parse(record.createdAt);
    const leadId = record.idempotencyKey?.split(':')[0];
    const receivedAt = leadId ? createdAt.get(leadId) : undefined;
    if (receivedAt !== undefined) fromReceipt.push(ackAt - receivedAt);
  }
  const receiptP = percentiles(fromReceipt);
  const summary = {
    bench: o.crash ? (o.plain ? 'crash --plain' : 'crash') : 'e2e',
    receiverDedupes: !o.plain,
    engine: o.engine,
    postgres,
    processes,
    settings: tunables(),
    rateTarget: o.rate,
    rateAchieved: Math.round((steadySent / sendSeconds) * 10) / 10,
    emulatorLatencyMs: o.latencyMs,
    bodyBytes: { min: pool.minMaxBytes(runId)[0], max: pool.minMaxBytes(runId)[1], average: pool.averageBytes(runId) },
    loadAverage: { before: loadBefore.join(' '), afterSending: loadAfterSend.join(' ') },
    sent: steadySent,
    skippedOverInFlightCap: load.skipped,
    statuses: load.statuses(),
    accepted: accepted.length,
    delivered: accepted.length - lost.length,
    lost: lost.length,
    lostSample: lost.slice(0, 10),
    deliveredPerSWhileSending: deliveredPerSWhileSending(emulator.records, wallStart, sendSeconds),
    drainSeconds,
    duplicateRecords: duplicateRecords.length,
    attemptedDuplicates: { keys: repeatedKeys.length, extraRequests: repeatedRequests },
    emulatorRequests: emulator.requests.length,
    emulatorRecords: emulator.records.length,
    workerKills: kills,
    workerRestartMs: o.crash ? restartMs : undefined,
    deliveries: deliveryStates,
    memory: memoryReport,
    latencyMs: {
      receiptToAck: receiptP,
      sendToAck: sendToReceipt(load, accepted, recordsBySeq),
      sendTo202: percentiles(answer),
    },
    targetP99Met: receiptP.p99 <= 1000,
    costs,
    topStatements,
    burst: burst && {
      ...burst,
      lost: lostInBurst.length,
      receiptToAck: percentiles(burstFromReceipt),
    },
  };
  if (print) console.info(JSON.stringify(summary, null, 2));
  // A plain receiver cannot tell a repeat: its duplicates are the figure to report, not a failure.
  if (o.cpuProf) {
    for (const name of readdirSync(profDir)) {
      for (const f of readdirSync(join(profDir, name)).filter((file) => file.endsWith('.cpuprofile'))) {
        console.info(`\n${name}:`);
        console.info(summarizeProfile(join(profDir, name, f), 25));
      }
    }
  }
  const ok =
    lost.length === 0 && lostInBurst.length === 0 && (o.plain || duplicateRecords.length === 0) && accepted.length > 0;
  if (!ok) console.error(`FAILED: ${lost.length} lost, ${duplicateRecords.length} delivered as two records`);
  return { ok, summary };
}
