// The chaos suite (issue 16, item 4), run by `npm test` (scripts/test.mjs) and so by CI, and by hand
// as `npm run bench -w @leadrelay/bench -- chaos`. It owns its PostgreSQL: a throw-away cluster of the
// embedded PostgreSQL binaries under /tmp (never the machine's server), so it may restart it.
//
// Two ROLE=api and two ROLE=worker processes (the built server, as `npm start` runs it) take a
// steady load of leads to a webhook source routed to three destinations: a plain http receiver that
// honours no Idempotency-Key, fails 30 % of calls with a 500 and hangs 10 s on 3 % (a seeded
// draw; while the load runs, then it heals), and the amoCRM and Pipedrive emulators (neither has an
// idempotency key: amoCRM none at all, Pipedrive only origin_id to search by). Meanwhile, on
// a fixed timeline: an API process and a worker get `kill -9` (and are started again, as a
// supervisor would), PostgreSQL is restarted, and every backend of the app is terminated
// (pg_terminate_backend). The surviving processes are never restarted: each must come back by
// itself, and the time it takes is measured (API: its first 202; worker: its first finished
// attempt; the LISTEN connections of the bus and the real-time adapter: back to their number).
//
// The ledger at the end: every accepted lead (answered 202, or 200 duplicate of a retried send)
// delivered to every destination; none lost; none twice at the CRM emulators; the http receiver's
// repeats counted (it honours no key: the design keeps them few, see docs/benchmarks.md); every
// survivor recovered within RECOVERY_LIMIT_MS. Exit 1 on any breach.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { startAmoEmulator } from '@leadrelay/connectors/amocrm/emulator';
import { startPipedriveEmulator } from '@leadrelay/connectors/pipedrive/emulator';
import pg from 'pg';
import {
  api,
  freePort,
  log,
  machine,
  newRunId,
  newSecret,
  OWNER,
  onCleanup,
  ownCluster,
  type ServerProcess,
  scratchDir,
  startServer,
} from './harness';
import { rng } from './leads';

export interface ChaosOptions {
  /** Leads per second, spread over the two API processes. */
  rate: number;
  /** Seconds of load; the disruptions are placed within it. */
  duration: number;
  /** Seconds to wait after the load for the last deliveries. */
  drainTimeout: number;
  seed: number;
}

/** A surviving process must be serving again this soon after a disruption ends. */
const RECOVERY_LIMIT_MS = 30_000;
const HTTP_FAIL_RATE = 0.3;
const HTTP_HANG_RATE = 0.03;
const HTTP_HANG_MS = 10_000;

/** The plain receiver: no Idempotency-Key honoured, 30 % 500, some 10 s hangs (seeded). */
interface Receiver {
  url: string;
  /** The faults are on while the load runs; then it heals, so the drain shows what was kept. */
  faulty: boolean;
  /** Records by Idempotency-Key (each request that got a 200 made one). */
  records: Map<string, number>;
  /** Keys whose record was made by a call that then hung past our timeout. */
  hungKeys: Set<string>;
  requests: number;
  failed: number;
  hung: number;
  server: Server;
}

async function startReceiver(random: () => number): Promise<Receiver> {
  const receiver: Receiver = {
    url: '',
    faulty: true,
    records: new Map(),
    hungKeys: new Set(),
    requests: 0,
    failed: 0,
    hung: 0,
    server: createServer(),
  };
  const body = (req: IncomingMessage) =>
    new Promise<void>((res) => {
      req.on('data', () => {});
      req.on('end', () => res());
      req.on('error', () => res());
    });
  receiver.server.on('request', async (req, res) => {
    await body(req);
    receiver.requests += 1;
    const draw = receiver.faulty ? random() : 1;
    if (draw < HTTP_FAIL_RATE) {
      receiver.failed += 1;
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"chaos"}');
      return;
    }
    // A hang: the record is made on arrival (a receiver that commits, then stalls), answered 10 s later.
    const key = String(req.headers['idempotency-key'] ?? '');
    receiver.records.set(key, (receiver.records.get(key) ?? 0) + 1);
    if (draw < HTTP_FAIL_RATE + HTTP_HANG_RATE) {
      receiver.hung += 1;
      receiver.hungKeys.add(key);
      await sleep(HTTP_HANG_MS);
    } else await sleep(20);
    if (!res.destroyed) res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  const port = await freePort();
  await new Promise<void>((res) => receiver.server.listen(port, '127.0.0.1', res));
  receiver.url = `http://127.0.0.1:${port}/hook`;
  onCleanup(
    () =>
      new Promise<void>((res) => {
        receiver.server.closeAllConnections();
        receiver.server.close(() => res());
      }),
  );
  return receiver;
}

/** amoCRM's marker of a delivery (packages/connectors/src/amocrm amoMarkerOf), computed here from the ledger. */
const amoMarkerOf = (key: string) => `lr${createHash('sha256').update(key).digest('hex').slice(0, 32)}`;

/** Signs in and connects an amoCRM integration through the emulator's consent page, as a browser would. */
async function connectAmo(base: string, token: string): Promise<string> {
  const created = await api(base, token, 'POST', '/api/integrations', {
    type: 'amocrm',
    name: 'Chaos amoCRM',
    settings: { note: false, contactPolicy: 'create' },
  });
  const id = String(created._id);
  const res = await fetch(`${base}/api/legacy/api/amocrm/connect`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ integrationId: id }),
  });
  if (!res.ok) throw new Error(`amoCRM connect answered ${res.status}: ${await res.text()}`);
  const cookie = String(res.headers.get('set-cookie')).split(';')[0]!;
  const { url } = (await res.json()) as { url: string };
  const consent = await fetch(url, { redirect: 'manual' });
  const back = await fetch(String(consent.headers.get('location')), { redirect: 'manual', headers: { cookie } });
  const landed = String(back.headers.get('location'));
  if (!landed.includes('connected=1')) throw new Error(`amoCRM connect ended at ${landed}`);
  return id;
}

/** Sum of a counter in a process's /metrics (loopback may scrape). */
async function counter(proc: ServerProcess, name: string): Promise<number | undefined> {
  try {
    const text = await (await fetch(`${proc.url}/metrics`, { signal: AbortSignal.timeout(2_000) })).text();
    return text
      .split('\n')
      .filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `))
      .reduce((s, l) => s + Number(l.split(' ').at(-1)), 0);
  } catch {
    return undefined;
  }
}

interface Sent {
  seq: number;
  /** 202 or a 200 duplicate: the lead is the server's. */
  hookId?: string;
  tries: number;
  lastError?: string;
}

export async function runChaos(o: ChaosOptions): Promise<boolean> {
  const startedAt = performance.now();
  const runId = newRunId();
  const dir = scratchDir(`chaos-${runId}`);
  log('machine', machine());
  const cluster = await ownCluster(dir);
  log(`owned PostgreSQL cluster in ${dir}/pg (${Math.round(performance.now() - startedAt)} ms)`);
  const receiver = await startReceiver(rng(o.seed + 1));
  const amo = await startAmoEmulator({ rateLimit: 1000 });
  // amoCRM allows 7 requests per second; at the suite's rate that would only make the drain long.
  amo.setRateLimit(null);
  // A CRM answering in a few hundred milliseconds: a kill then finds calls to it under way.
  amo.setLatency(300);
  onCleanup(() => amo.close());
  const pipedrive = await startPipedriveEmulator();
  pipedrive.setLatency(300);
  onCleanup(() => pipedrive.close());

  const jwtSecret = newSecret();
  const encryptionKey = newSecret();
  const [apiPorts, workerPorts] = [
    [await freePort(), await freePort()],
    [await freePort(), await freePort()],
  ];
  const publicUrl = `http://127.0.0.1:${apiPorts[0]}`;
  amo.setRedirectUri(`${publicUrl}/api/amocrm/callback`);
  const env = {
    PUBLIC_URL: publicUrl,
    AMOCRM_CLIENT_ID: amo.clientId,
    AMOCRM_CLIENT_SECRET: amo.clientSecret,
    AMOCRM_OAUTH_URL: amo.oauthUrl,
    AMOCRM_HOSTS: amo.host,
    PIPEDRIVE_CLIENT_ID: pipedrive.clientId,
    PIPEDRIVE_CLIENT_SECRET: pipedrive.clientSecret,
    PIPEDRIVE_OAUTH_URL: pipedrive.url,
    PIPEDRIVE_API_URL: pipedrive.url,
    PIPEDRIVE_HOSTS: `127.0.0.1:${pipedrive.port}`,
    LOG_LEVEL: 'warn',
  };
  const start = (role: 'api' | 'worker', i: number, owner = false) =>
    startServer({
      name: `${role}${i + 1}`,
      role,
      port: (role === 'api' ? apiPorts : workerPorts)[i]!,
      dir,
      databaseUrl: cluster.url,
      jwtSecret,
      encryptionKey,
      owner,
      env,
    });
  const apis = [await start('api', 0, true)];
  const rest = await Promise.all([start('api', 1), start('worker', 0), start('worker', 1)]);
  apis.push(rest[0]!);
  const workers = [rest[1]!, rest[2]!];
  log(`2 api + 2 worker processes up (${Math.round(performance.now() - startedAt)} ms since start)`);

  const { accessToken } = await api(apis[0]!.url, null, 'POST', '/api/auth/login', OWNER);
  const token = String(accessToken);
  const http = await api(apis[0]!.url, token, 'POST', '/api/integrations', {
    type: 'http',
    name: 'Plain receiver',
    settings: { url: receiver.url },
  });
  const amoId = await connectAmo(apis[0]!.url, token);
  const pd = await api(apis[0]!.url, token, 'POST', '/api/integrations', {
    type: 'pipedrive',
    name: 'Chaos Pipedrive',
    settings: { note: false },
  });
  await api(apis[0]!.url, token, 'POST', '/api/legacy/api/pipedrive/connect', {
    integrationId: pd._id,
    apiToken: pipedrive.apiToken,
  });
  const source = await api(apis[0]!.url, token, 'POST', '/api/integrations', {
    type: 'webhook',
    name: 'Chaos form',
    destination: [http._id, amoId, pd._id],
  });
  const DESTINATIONS = 3;
  const hook = await api(apis[0]!.url, token, 'GET', `/api/integrations/${source._id}/generateHook`);
  const hookPath = `/api/hooks/in/${hook.token}`;
  const db = new pg.Pool({ connectionString: cluster.url, max: 2, application_name: 'chaos-ledger' });
  db.on('error', () => {});
  onCleanup(() => db.end());
  const listeners = async () =>
    Number(
      (
        await db.query<{ n: string }>(
          `select count(*) as n from pg_stat_activity where datname = current_database() and query ilike 'listen %' and pid <> pg_backend_pid()`,
        )
      ).rows[0]?.n,
    );
  // Every process's bus and real-time adapter LISTEN on connections of their own: the baseline.
  let baselineListeners = 0;
  for (let i = 0; i < 40 && baselineListeners < 4; i++) {
    baselineListeners = await listeners().catch(() => 0);
    if (baselineListeners < 4) await sleep(250);
  }
  log(`LISTEN connections at rest: ${baselineListeners}`);

  // ---- The load: each lead to an API in turn; a send that got no answer is sent again (same key) to the other ----
  const sent: Sent[] = [];
  /** Per API process slot: when each 202 came (for the recovery times). */
  const acceptedAt: number[][] = [[], []];
  const sendLead = async (seq: number) => {
    const entry: Sent = { seq, tries: 0 };
    sent.push(entry);
    try {
      for (let attempt = 0; attempt < 30 && !entry.hookId; attempt++) {
        const slot = (seq + attempt) % 2;
        entry.tries += 1;
        try {
          const res = await fetch(`${apis[slot]!.url}${hookPath}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'idempotency-key': `chaos-${runId}-${seq}` },
            // A phone of its own: Pipedrive finds the person by it (and the lead by origin_id) on a repeat.
            body: JSON.stringify({
              name: `Chaos ${seq}`,
              phone: `+38067${String(seq).padStart(7, '0')}`,
              comment: `lead ${seq} of run ${runId}`,
            }),
            signal: AbortSignal.timeout(10_000),
          });
          const answer = (await res.json().catch(() => ({}))) as { hookId?: string };
          if ((res.status === 202 || res.status === 200) && answer.hookId) {
            entry.hookId = answer.hookId;
            acceptedAt[slot]!.push(performance.now());
            break;
          }
          entry.lastError = `HTTP ${res.status}`;
        } catch (error) {
          entry.lastError = (error as Error).name === 'TimeoutError' ? 'timeout' : (error as Error).message;
        }
        await sleep(500);
      }
    } catch (error) {
      entry.lastError = (error as Error).message;
    }
  };

  // ---- Disruptions ----
  interface Recovery {
    what: string;
    at: number;
    /** ms from the end of the disruption until each survivor served again. */
    apis: (number | null)[];
    workers: (number | null)[];
    listeners: number | null;
    downMs?: number;
  }
  const recoveries: Recovery[] = [];
  /** Recoveries are watched while the timeline goes on. */
  const watching: Promise<void>[] = [];
  const restarts: { what: string; ms: number }[] = [];
  const attemptsOf = async () => Promise.all(workers.map((w) => counter(w, 'leadrelay_delivery_attempts_total')));
  /** Waits (bounded) until every API answered a lead, every worker finished an attempt and the LISTENs are back. */
  const measureRecovery = async (what: string, since: number, downMs?: number) => {
    const before = await attemptsOf();
    const r: Recovery = {
      what,
      at: Math.round(since - loadStart),
      apis: [null, null],
      workers: [null, null],
      listeners: null,
      downMs,
    };
    const deadline = since + RECOVERY_LIMIT_MS + 5_000;
    while (performance.now() < deadline) {
      const now = performance.now();
      for (const i of [0, 1]) {
        const first = acceptedAt[i]!.find((t) => t >= since);
        if (r.apis[i] === null && first !== undefined) r.apis[i] = Math.round(first - since);
      }
      const after = await attemptsOf();
      for (const i of [0, 1]) {
        const b = before[i];
        const a = after[i];
        if (r.workers[i] === null && a !== undefined && (b === undefined || a > b))
          r.workers[i] = Math.round(now - since);
        if (b === undefined && a !== undefined) before[i] = a;
      }
      if (r.listeners === null && (await listeners().catch(() => 0)) >= baselineListeners)
        r.listeners = Math.round(now - since);
      if ([...r.apis, ...r.workers, r.listeners].every((v) => v !== null)) break;
      await sleep(200);
    }
    recoveries.push(r);
    log(`recovered after ${what}: ${JSON.stringify(r)}`);
  };

  const total = Math.round(o.rate * o.duration);
  const at = (fraction: number) => o.duration * 1000 * fraction;
  const loadStart = performance.now();
  const timeline = [
    {
      at: at(0.12),
      what: 'kill -9 api2',
      run: async () => {
        await apis[1]!.kill9();
        const t0 = performance.now();
        apis[1] = await start('api', 1);
        restarts.push({ what: 'api2', ms: Math.round(performance.now() - t0) });
      },
    },
    {
      at: at(0.25),
      what: 'kill -9 worker1',
      run: async () => {
        await workers[0]!.kill9();
        const t0 = performance.now();
        workers[0] = await start('worker', 0);
        restarts.push({ what: 'worker1', ms: Math.round(performance.now() - t0) });
      },
    },
    {
      at: at(0.4),
      what: 'restart PostgreSQL',
      run: async () => {
        const downMs = await cluster.restart();
        watching.push(measureRecovery('PostgreSQL restart', performance.now(), downMs));
      },
    },
    {
      at: at(0.65),
      what: 'pg_terminate_backend of every app backend',
      run: async () => {
        const { rows } = await db.query<{ n: string }>(
          `select count(*) filter (where pg_terminate_backend(pid)) as n from pg_stat_activity
           where datname = current_database() and backend_type = 'client backend' and application_name <> 'chaos-ledger'`,
        );
        log(`terminated ${rows[0]?.n} backends`);
        watching.push(measureRecovery('pg_terminate_backend', performance.now()));
      },
    },
  ];
  /** Every disruption has run and every recovery has been seen (or its time is up). */
  let calm = false;
  const disruptions = (async () => {
    for (const step of timeline) {
      const wait = loadStart + step.at - performance.now();
      if (wait > 0) await sleep(wait);
      log(`t=${((performance.now() - loadStart) / 1000).toFixed(1)} s: ${step.what}`);
      await step.run();
    }
    await Promise.all(watching);
    calm = true;
  })();

  // The load goes on past its planned end while a disruption or its recovery is still under way: on
  // a loaded machine a restart takes longer and the timeline slips, and an API's recovery is its
  // first answered lead after the disruption, which needs leads still coming (a run whose PostgreSQL
  // restart came after the last lead read as "not recovered").
  log(
    `sending ${o.rate}/s for ${o.duration} s (${total} leads, more while a disruption is under way) to 2 API processes`,
  );
  const sends: Promise<void>[] = [];
  for (let seq = 0; seq < total || !calm; seq++) {
    const due = loadStart + (seq * 1000) / o.rate - performance.now();
    if (due > 0) await sleep(due);
    sends.push(sendLead(seq));
  }
  await disruptions;
  await Promise.all(sends);
  await Promise.all(watching);
  const loadSeconds = (performance.now() - loadStart) / 1000;
  receiver.faulty = false;
  const accepted = sent.filter((s) => s.hookId);
  log(`load done in ${loadSeconds.toFixed(1)} s: ${accepted.length} of ${sent.length} accepted; draining`);

  // ---- Drain: until every accepted lead's deliveries are delivered ----
  const keysOf = async () => {
    const { rows } = await db.query<{ hook_id: string; idempotency_key: string; type: string; status: string }>(
      `select d.hook_id, d.idempotency_key, i.type, d.status from deliveries d join integrations i on i.id = d.destination_id
       where d.hook_id = any($1::uuid[])`,
      [accepted.map((s) => s.hookId)],
    );
    return rows;
  };
  const drainStart = performance.now();
  let rows = await keysOf();
  while (performance.now() - drainStart < o.drainTimeout * 1000) {
    rows = await keysOf().catch(() => rows);
    if (rows.length === accepted.length * DESTINATIONS && rows.every((r) => r.status === 'delivered')) break;
    await sleep(1000);
  }
  const drainSeconds = Math.round((performance.now() - drainStart) / 100) / 10;

  // ---- The ledger ----
  const byType = (type: string) => rows.filter((r) => r.type === type);
  const notDelivered = rows.filter((r) => r.status !== 'delivered');
  const httpKeys = byType('http').map((r) => r.idempotency_key);
  const amoKeys = byType('amocrm').map((r) => r.idempotency_key);
  const httpLost = httpKeys.filter((k) => !receiver.records.has(k));
  const httpTwice = httpKeys.filter((k) => (receiver.records.get(k) ?? 0) > 1);
  const httpExtra = httpKeys.reduce((s, k) => s + Math.max(0, (receiver.records.get(k) ?? 0) - 1), 0);
  const amoByMarker = new Map<string, number>();
  let amoUnmarked = 0;
  for (const lead of amo.leads) {
    const marker = (lead.custom_fields_values ?? [])
      .flatMap((f) => f.values.map((v) => String(v.value ?? '')))
      .find((v) => /^lr[0-9a-f]{32}$/.test(v));
    if (!marker) amoUnmarked += 1;
    else amoByMarker.set(marker, (amoByMarker.get(marker) ?? 0) + 1);
  }
  const amoLost = amoKeys.filter((k) => !amoByMarker.has(amoMarkerOf(k)));
  const amoTwice = amoKeys.filter((k) => (amoByMarker.get(amoMarkerOf(k)) ?? 0) > 1);
  const pdKeys = byType('pipedrive').map((r) => r.idempotency_key);
  const pdByOrigin = new Map<string, number>();
  for (const lead of pipedrive.leads as { origin_id?: string | null }[]) {
    const origin = lead.origin_id ?? '';
    pdByOrigin.set(origin, (pdByOrigin.get(origin) ?? 0) + 1);
  }
  const pdLost = pdKeys.filter((k) => !pdByOrigin.has(k));
  const pdTwice = pdKeys.filter((k) => (pdByOrigin.get(k) ?? 0) > 1);
  const claims = await db
    .query<{ type: string; claims: string; claims_without_result: string }>(
      `select i.type, sum(d.attempts) as claims,
         sum(greatest(0, d.attempts - (select count(*) from delivery_attempts a where a.delivery_id = d.id))) as claims_without_result
       from deliveries d join integrations i on i.id = d.destination_id group by i.type`,
    )
    .then((r) => r.rows)
    .catch(() => []);
  const dead = [...apis, ...workers].filter((p) => p.child.exitCode !== null || p.child.signalCode !== null);
  const slow = recoveries.flatMap((r) =>
    [...r.apis, ...r.workers, r.listeners].some((v) => v === null || v > RECOVERY_LIMIT_MS) ? [r.what] : [],
  );
  const ledger = {
    bench: 'chaos',
    seed: o.seed,
    processes: '2 api + 2 worker, one owned PostgreSQL cluster (embedded binaries)',
    rate: o.rate,
    loadSeconds: Math.round(loadSeconds * 10) / 10,
    sent: sent.length,
    accepted: accepted.length,
    unanswered: sent.length - accepted.length,
    sendRetries: sent.reduce((s, e) => s + e.tries - 1, 0),
    drainSeconds,
    deliveriesNotDelivered: notDelivered.length,
    http: {
      receiver: { requests: receiver.requests, failed500: receiver.failed, hung10s: receiver.hung },
      delivered: httpKeys.length - httpLost.length,
      lost: httpLost.length,
      leadsRecordedTwiceOrMore: httpTwice.length,
      extraRecords: httpExtra,
      // A call that hung past our 10-s timeout is sent again: the receiver had made the record.
      twiceAfterATimeout: httpTwice.filter((k) => receiver.hungKeys.has(k)).length,
      // The rest: a call under way when its worker was killed, or whose result could not be stored.
      twiceAfterACrash: httpTwice.filter((k) => !receiver.hungKeys.has(k)).length,
    },
    amocrm: {
      leadsAtEmulator: amo.leads.length,
      delivered: amoKeys.length - amoLost.length,
      lost: amoLost.length,
      duplicates: amoTwice.length,
      unmarked: amoUnmarked,
      leadSearches: amo.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/api/v4/leads?')).length,
    },
    pipedrive: {
      leadsAtEmulator: pipedrive.leads.length,
      persons: pipedrive.persons.length,
      delivered: pdKeys.length - pdLost.length,
      lost: pdLost.length,
      duplicates: pdTwice.length,
    },
    claims,
    restartsMs: restarts,
    recoveryLimitMs: RECOVERY_LIMIT_MS,
    recoveries,
    survivorsDied: dead.map((p) => p.name),
    totalSeconds: Math.round((performance.now() - startedAt) / 100) / 10,
  };
  console.info(JSON.stringify(ledger, null, 2));
  const failures = [
    ...(accepted.length === 0 ? ['no lead was accepted'] : []),
    ...(notDelivered.length ? [`${notDelivered.length} deliveries not delivered`] : []),
    ...(httpLost.length ? [`${httpLost.length} leads lost at the http receiver`] : []),
    ...(amoLost.length ? [`${amoLost.length} leads lost at amoCRM`] : []),
    ...(amoTwice.length ? [`${amoTwice.length} leads twice at amoCRM`] : []),
    ...(amoUnmarked ? [`${amoUnmarked} amoCRM leads without a marker`] : []),
    ...(pdLost.length ? [`${pdLost.length} leads lost at Pipedrive`] : []),
    ...(pdTwice.length ? [`${pdTwice.length} leads twice at Pipedrive`] : []),
    ...(dead.length ? [`processes died: ${dead.map((p) => p.name).join(', ')}`] : []),
    ...(slow.length ? [`not recovered within ${RECOVERY_LIMIT_MS} ms: ${slow.join(', ')}`] : []),
  ];
  log(
    failures.length
      ? `CHAOS FAILED: ${failures.join('; ')}`
      : `chaos passed: ${accepted.length} accepted, 0 lost, 0 twice at amoCRM and Pipedrive, ${httpExtra} repeat(s) at the plain http receiver, in ${ledger.totalSeconds} s`,
  );
  return failures.length === 0;
}
