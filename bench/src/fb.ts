// (d) Meta lead webhook to destination: the server runs with EMULATORS=true (the Graph API
// emulator inside the server process), the bench connects Facebook through the emulator's login
// dialog, subscribes the seeded page, makes a facebook integration of the seeded lead form routed
// to the http emulator (in this process), then submits leads through the Graph emulator's control
// API (POST /__emulator/submit-lead): the emulator posts Meta's signed webhook to the server, which
// stores it, answers 200, fetches the lead from Graph and ingests it; the delivery worker sends it.
// Per lead: time from submit-lead returning to the lead's arrival at the http emulator, and the
// stages in between (webhook stored, lead ingested) read from the database afterwards.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startGraphEmulator } from '@leadrelay/connectors/facebook/emulator';
import { startHttpEmulator } from '@leadrelay/connectors/http/emulator';
import pg from 'pg';
import { clusterPids, embeddedDatabaseUrl } from './embedded';
import {
  api,
  benchDatabase,
  type Engine,
  freePort,
  log,
  machine,
  newRunId,
  newSecret,
  OWNER,
  onCleanup,
  percentiles,
  scratchDir,
  serverVersion,
  startServer,
} from './harness';
import { cpuSeconds, sampleActivity, sampleMemory } from './observe';
import { summarizeProfile } from './profile';

export interface FbOptions {
  engine: Engine;
  /** Leads sent at a steady rate. */
  leads: number;
  rate: number;
  /** Leads then submitted all at once (0 = no burst). */
  burst: number;
  /** The http destination answers after this long. */
  latencyMs: number;
  /** The Graph emulator sends every notification this many times (Meta's at-least-once delivery). */
  metaDuplicates: number;
  drainTimeout: number;
  /** Profile the server (--cpu-prof) and print where its time went. */
  cpuProf: boolean;
  /** Where the Graph emulator runs: in the server (EMULATORS=true) or in the bench process. */
  graph: 'server' | 'bench';
  /** ROLE=api + ROLE=worker processes (needs --graph bench and --engine pg). */
  split: boolean;
}

/** The seeded page and form of the Graph emulator (GRAPH_SEED in the connectors' emulator state). */
const PAGE_ID = '20000000000001';
const FORM_ID = '30000000000001';
const FB_OAUTH_COOKIE = 'lr_fb_oauth';

interface Submitted {
  phase: 'steady' | 'burst';
  sentAt: number;
  /** When submit-lead answered (the emulator has stored the lead and started the webhook POST). */
  returnedAt?: number;
  leadgenId?: string;
  error?: string;
}

/** POST /facebook/start → the emulator's login dialog → GET /facebook/callback with the nonce cookie. */
async function connectFacebook(base: string, token: string): Promise<string> {
  const start = await fetch(`${base}/facebook/start`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ locale: 'en' }),
  });
  if (!start.ok) throw new Error(`POST /facebook/start answered ${start.status}: ${await start.text()}`);
  const { authUrl } = (await start.json()) as { authUrl: string };
  const cookie = start.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .find((c) => c.startsWith(`${FB_OAUTH_COOKIE}=`));
  if (!cookie) throw new Error('POST /facebook/start set no state cookie');
  const dialog = await fetch(authUrl, { redirect: 'manual' });
  const back = dialog.headers.get('location');
  if (dialog.status !== 302 || !back) throw new Error(`the login dialog answered ${dialog.status}`);
  const callback = await fetch(back, { redirect: 'manual', headers: { cookie } });
  const screen = callback.headers.get('location');
  const connectionId = screen ? new URL(screen, base).searchParams.get('connected') : null;
  if (!connectionId) throw new Error(`the callback did not connect: ${callback.status} ${screen ?? ''}`);
  return connectionId;
}

const leadgenIdOf = (body: unknown): string | undefined =>
  /"leadgen_id":"(\d+)"/.exec(JSON.stringify(body ?? null))?.[1];

const ms = (iso: string | Date) => (typeof iso === 'string' ? Date.parse(iso) : iso.getTime());

export async function runFb(o: FbOptions): Promise<boolean> {
  if (o.split && (o.graph !== 'bench' || o.engine === 'embedded')) {
    throw new Error(
      '--split needs --graph bench (the in-server emulator is per process) and --engine pg (the embedded PostgreSQL belongs to one ROLE=all process)',
    );
  }
  const runId = newRunId();
  const dir = scratchDir(runId);
  log('machine', machine());
  const serverDatabaseUrl = await benchDatabase(o.engine, runId, dir);
  const receiver = await startHttpEmulator({ maxLog: 1_000_000 });
  onCleanup(() => receiver.close());
  receiver.setLatency(o.latencyMs);

  // --graph server: EMULATORS=true, the Graph emulator lives in the server process (ROLE=all only:
  // a separate worker would have an emulator of its own that knows none of the leads).
  // --graph bench: the Graph emulator runs in this process and the server is configured for it
  // with FACEBOOK_* (as for the real Graph API), so the server's CPU is its own and --split works.
  const graph = o.graph === 'bench' ? await startGraphEmulator({ maxLog: 100_000 }) : undefined;
  if (graph) onCleanup(() => graph.close());
  const port = await freePort();
  const profDir = join(dir, 'prof');
  const base = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = graph
    ? {
        PUBLIC_URL: base,
        FACEBOOK_APP_ID: graph.appId,
        FACEBOOK_APP_SECRET: graph.appSecret,
        FACEBOOK_GRAPH_URL: graph.graphUrl,
        FACEBOOK_DIALOG_URL: graph.dialogUrl,
      }
    : { EMULATORS: 'true', PUBLIC_URL: base };
  const common = { dir, databaseUrl: serverDatabaseUrl, jwtSecret: newSecret(), encryptionKey: newSecret(), env };
  const nodeArgs = (name: string) => (o.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${join(profDir, name)}`] : []);
  const servers = [
    await startServer({
      ...common,
      name: o.split ? 'api' : 'all',
      role: o.split ? 'api' : 'all',
      port,
      owner: true,
      nodeArgs: nodeArgs(o.split ? 'api' : 'all'),
    }),
  ];
  if (o.split) {
    const workerPort = await freePort();
    servers.push(
      await startServer({ ...common, name: 'worker', role: 'worker', port: workerPort, nodeArgs: nodeArgs('worker') }),
    );
  }
  // The bench reads the same database: its own on the shared server, or the embedded one's socket.
  const databaseUrl = serverDatabaseUrl ?? embeddedDatabaseUrl(servers[0]!.dataDir);
  const postgres = await serverVersion(databaseUrl);
  const clusterDir = servers[0]!.clusterDir;
  const serverCpu = () => servers.reduce((sum, s) => sum + cpuSeconds(s.child.pid), 0);
  const graphUrl =
    graph?.url ?? String(((await api(base, null, 'GET', '/api/emulators')).facebook as { url: string }).url);
  const token = String((await api(base, null, 'POST', '/api/auth/login', OWNER)).accessToken);
  const connectionId = await connectFacebook(base, token);
  await api(base, token, 'POST', `/api/facebook/connection/${connectionId}/account/${PAGE_ID}/subscribe`);
  const destination = await api(base, token, 'POST', '/api/integrations', {
    type: 'http',
    name: 'Bench receiver',
    settings: { url: receiver.hookUrl },
  });
  await api(base, token, 'POST', '/api/integrations', {
    type: 'facebook',
    name: 'Bench lead form',
    settings: { fbConnectionId: connectionId, fbPageId: PAGE_ID, fbFormId: FORM_ID },
    destination: [destination._id],
  });
  if (o.metaDuplicates > 1) {
    const res = await fetch(`${graphUrl}/__emulator/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ duplicates: o.metaDuplicates }),
    });
    if (!res.ok) throw new Error(`duplicates switch answered ${res.status}`);
  }
  log(
    `${o.split ? 'api + worker' : 'all'} on ${o.engine}; Graph emulator in the ${o.graph} process at ${graphUrl}; destination answering after ${o.latencyMs} ms`,
  );

  const submitted: Submitted[] = [];
  let inFlight = 0;
  const submit = (phase: Submitted['phase'], n: number) => {
    const entry: Submitted = { phase, sentAt: Date.now() };
    submitted.push(entry);
    inFlight += 1;
    fetch(`${graphUrl}/__emulator/submit-lead`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        formId: FORM_ID,
        fieldData: [
          { name: 'full_name', values: [`Bench Lead ${n}`] },
          { name: 'phone_number', values: [`+38067${String(1_000_000 + n).slice(-7)}`] },
          { name: 'email', values: [`bench.${runId}.${n}@example.com`] },
          { name: 'preferred_time', values: ['evening'] },
          { name: 'what_bothers_you', values: [`Run ${runId}, lead ${n}`] },
        ],
      }),
      signal: AbortSignal.timeout(10_000),
    })
      .then(async (res) => {
        const text = await res.text();
        entry.returnedAt = Date.now();
        if (!res.ok) throw new Error(`submit-lead answered ${res.status}: ${text}`);
        entry.leadgenId = String((JSON.parse(text) as { leadgenId: string }).leadgenId);
      })
      .catch((error: Error) => {
        entry.error = error.message;
      })
      .finally(() => {
        inFlight -= 1;
      });
  };

  const deliveredIds = () => new Set(receiver.records.map((r) => leadgenIdOf(r.body)));
  /** Waits until every lead of the phase has arrived; the server's CPU seconds and the time then. */
  const waitForDeliveries = async (phase: Submitted['phase']) => {
    for (let i = 0; i < 200 && inFlight > 0; i++) await sleep(50);
    const ids = submitted.filter((s) => s.phase === phase && s.leadgenId).map((s) => s.leadgenId!);
    const startWait = Date.now();
    for (;;) {
      const have = deliveredIds();
      const missing = ids.filter((id) => !have.has(id)).length;
      if (missing === 0) break;
      if (Date.now() - startWait > o.drainTimeout * 1000) {
        log(`${phase}: gave up waiting after ${o.drainTimeout} s: ${missing} not delivered`);
        break;
      }
      await sleep(20);
    }
    return { cpu: serverCpu(), at: Date.now() };
  };
  // Room for a late duplicate (Meta's repeat or a second processing) to show up.
  const LATE_DUPLICATE_WAIT_MS = 2_000;

  const memory = sampleMemory(() => ({
    servers: servers.map((s) => ({ name: s.name, pid: s.child.pid })),
    postgresPids: clusterDir ? () => clusterPids(clusterDir) : undefined,
  }));
  const loadBefore = machine().loadavg;
  log(`steady: ${o.leads} leads at ${o.rate}/s, load average ${loadBefore}`);
  const cpuSteady = serverCpu();
  const steadyStart = Date.now();
  const start = performance.now();
  let next = 0;
  while (next < o.leads && performance.now() - start < (o.leads / o.rate) * 1000 + 5_000) {
    const due = Math.min(o.leads, Math.floor(((performance.now() - start) * o.rate) / 1000) + 1);
    while (next < due) submit('steady', next++);
    await sleep(2);
  }
  const steadyDone = await waitForDeliveries('steady');
  await sleep(LATE_DUPLICATE_WAIT_MS);
  /** The server's CPU seconds over a phase (first submit to last arrival) and that wall time. */
  const cpu: Record<string, { serverCpuSeconds: number; wallSeconds: number }> = {
    steady: {
      serverCpuSeconds: Math.round((steadyDone.cpu - cpuSteady) * 100) / 100,
      wallSeconds: (steadyDone.at - steadyStart) / 1000,
    },
  };
  let loadBeforeBurst: string | undefined;
  let pgActivityDuringBurst: Awaited<ReturnType<ReturnType<typeof sampleActivity>['stop']>> | undefined;
  if (o.burst > 0) {
    loadBeforeBurst = machine().loadavg;
    log(`burst: ${o.burst} leads at once, load average ${loadBeforeBurst}`);
    // What the database's connections do during the burst (every 20 ms).
    const sampler = sampleActivity(databaseUrl, 20);
    await sleep(100);
    const cpuBurst = serverCpu();
    const burstStart = Date.now();
    for (let i = 0; i < o.burst; i++) submit('burst', o.leads + i);
    const burstDone = await waitForDeliveries('burst');
    pgActivityDuringBurst = await sampler.stop();
    await sleep(LATE_DUPLICATE_WAIT_MS);
    cpu.burst = {
      serverCpuSeconds: Math.round((burstDone.cpu - cpuBurst) * 100) / 100,
      wallSeconds: (burstDone.at - burstStart) / 1000,
    };
  }
  const loadAfter = machine().loadavg;
  const memoryReport = memory.stop();

  // Stages from the database: the webhook's receipt (connector_inbound_events.received_at, stamped as the
  // POST is taken, before its row is written and the 200 goes out) and the lead's ingest (created_at).
  const receivedAt = new Map<string, number>();
  const createdAt = new Map<string, number>();
  const eventStates: Record<string, number> = {};
  let leadRows: number;
  {
    const c = new pg.Client({ connectionString: databaseUrl });
    await c.connect();
    const events = await c.query<{ leadgen_id: string; received_at: Date; status: string; attempts: number }>(
      "select external_id as leadgen_id, received_at, status, attempts from connector_inbound_events where type = 'facebook'",
    );
    for (const r of events.rows) {
      receivedAt.set(r.leadgen_id, ms(r.received_at));
      eventStates[r.status] = (eventStates[r.status] ?? 0) + 1;
      if (r.attempts > 1) eventStates.claimedMoreThanOnce = (eventStates.claimedMoreThanOnce ?? 0) + 1;
    }
    const leads = await c.query<{ id: string; created_at: Date }>('select id, created_at from leads');
    for (const r of leads.rows) createdAt.set(r.id, ms(r.created_at));
    leadRows = leads.rows.length;
    await c.end();
  }
  const graphState = (await (await fetch(`${graphUrl}/__emulator/state`)).json()) as {
    deliveries: { leadgenIds: string[]; attempt: number; copy: number; status: number; outcome: string; at: string }[];
  };
  for (const s of servers.reverse()) await s.stop();

  // The Graph emulator's first try of each lead's webhook, and how many tries it made in all.
  const webhookAt = new Map<string, number>();
  let webhookTries = 0;
  let webhookFailures = 0;
  for (const d of graphState.deliveries) {
    webhookTries += 1;
    if (d.outcome !== 'ok') webhookFailures += 1;
    for (const id of d.leadgenIds) if (d.attempt === 1 && d.copy === 1) webhookAt.set(id, ms(d.at));
  }
  const recordsById = new Map<string, typeof receiver.records>();
  for (const r of receiver.records) {
    const id = leadgenIdOf(r.body);
    if (id) recordsById.set(id, [...(recordsById.get(id) ?? []), r]);
  }
  const requestsById = new Map<string, number>();
  for (const r of receiver.requests) {
    const id = leadgenIdOf(r.body);
    if (id) requestsById.set(id, (requestsById.get(id) ?? 0) + 1);
  }

  const phaseSummary = (phase: Submitted['phase']) => {
    const list = submitted.filter((s) => s.phase === phase);
    const ok = list.filter((s) => s.leadgenId);
    const lost = ok.filter((s) => !recordsById.has(s.leadgenId!));
    const duplicateRecords = ok.filter((s) => (recordsById.get(s.leadgenId!)?.length ?? 0) > 1);
    const repeatedRequests = ok.reduce((n, s) => n + Math.max(0, (requestsById.get(s.leadgenId!) ?? 0) - 1), 0);
    const fromSubmit: number[] = [];
    const fromReceipt: number[] = [];
    const submitToReceipt: number[] = [];
    const receiptToIngest: number[] = [];
    const ingestToDestination: number[] = [];
    const webhookToReceipt: number[] = [];
    for (const s of ok) {
      const record = recordsById.get(s.leadgenId!)?.[0];
      if (!record) continue;
      const arrived = ms(record.createdAt);
      fromSubmit.push(arrived - s.returnedAt!);
      const received = receivedAt.get(s.leadgenId!);
      const leadId = record.idempotencyKey?.split(':')[0];
      const ingested = leadId ? createdAt.get(leadId) : undefined;
      const sentWebhook = webhookAt.get(s.leadgenId!);
      if (received !== undefined) {
        fromReceipt.push(arrived - received);
        submitToReceipt.push(received - s.returnedAt!);
        if (sentWebhook !== undefined) webhookToReceipt.push(received - sentWebhook);
        if (ingested !== undefined) receiptToIngest.push(ingested - received);
      }
      if (ingested !== undefined) ingestToDestination.push(arrived - ingested);
    }
    const seconds = list.length ? (Math.max(...list.map((s) => s.sentAt)) - list[0]!.sentAt) / 1000 : 0;
    return {
      submitted: list.length,
      submitRateAchieved: seconds > 0 ? Math.round(((list.length - 1) / seconds) * 10) / 10 : null,
      submitErrors: list.length - ok.length,
      submitErrorSample: list
        .filter((s) => s.error)
        .slice(0, 3)
        .map((s) => s.error),
      delivered: ok.length - lost.length,
      lost: lost.length,
      duplicateRecords: duplicateRecords.length,
      repeatedRequestsToDestination: repeatedRequests,
      latencyMs: {
        submitReturnedToDestination: percentiles(fromSubmit),
        webhookReceiptToDestination: percentiles(fromReceipt),
        stages: {
          webhookSentToReceipt: percentiles(webhookToReceipt),
          submitReturnedToReceipt: percentiles(submitToReceipt),
          receiptToIngest: percentiles(receiptToIngest),
          ingestToDestination: percentiles(ingestToDestination),
        },
      },
    };
  };

  const steady = phaseSummary('steady');
  const burst = o.burst > 0 ? phaseSummary('burst') : undefined;
  const summary = {
    bench: 'fb',
    engine: o.engine,
    postgres,
    processes: o.split ? 'api + worker' : 'all',
    graphEmulator: o.graph === 'server' ? 'in the server (EMULATORS=true)' : 'in the bench process (FACEBOOK_*)',
    destinationLatencyMs: o.latencyMs,
    metaDuplicates: o.metaDuplicates,
    loadAverage: { before: loadBefore, beforeBurst: loadBeforeBurst, after: loadAfter },
    steady: { rateTarget: o.rate, ...steady },
    ...(burst ? { burst } : {}),
    cpu,
    memory: memoryReport,
    pgActivityDuringBurst,
    webhook: { tries: webhookTries, notOk: webhookFailures },
    leadgenEvents: eventStates,
    leadRows,
    destinationRequests: receiver.requests.length,
    destinationRecords: receiver.records.length,
    targetP99Met: [steady, burst].every((p) => !p || p.latencyMs.submitReturnedToDestination.p99 <= 1000),
  };
  console.info(JSON.stringify(summary, null, 2));
  if (o.cpuProf) {
    // The last seconds of the profile: the burst (or the end of the steady phase), the 2-s wait
    // after it and the shutdown.
    for (const name of readdirSync(profDir)) {
      for (const f of readdirSync(join(profDir, name)).filter((file) => file.endsWith('.cpuprofile'))) {
        console.info(`${name}:`);
        console.info(summarizeProfile(join(profDir, name, f), 25, Math.ceil((cpu.burst?.wallSeconds ?? 0) + 3)));
      }
    }
  }
  const lost = steady.lost + (burst?.lost ?? 0);
  const duplicates = steady.duplicateRecords + (burst?.duplicateRecords ?? 0);
  const errors = steady.submitErrors + (burst?.submitErrors ?? 0);
  const ok = lost === 0 && duplicates === 0 && errors === 0;
  if (!ok) console.error(`FAILED: ${lost} lost, ${duplicates} delivered as two records, ${errors} submits failed`);
  return ok;
}
