// The peer in the same run (issue 30, part 3): Node-RED, installed from npm into a scratch folder
// outside the repository, forwards the leads `e2e` offers to the same kind of destination emulator
// (http in POST /lead → http request → http response 200); then LeadRelay's `e2e` runs with the
// same load, and both are printed side by side with ratios.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { startHttpEmulator } from '@leadrelay/connectors/http/emulator';
import { type E2eSummary, measureE2e } from './e2e';
import { type Engine, freePort, log, machine, newRunId, onCleanup, scratchDir } from './harness';
import { deliveredPerSWhileSending, LeadLoad, recordsBySeq, sendToReceipt, waitForRecords } from './load';
import { cpuSeconds } from './observe';

export const NODE_RED_VERSION = '5.0.7';

export interface PeerOptions {
  /** LeadRelay's layout: `owned` or `pg` run api + worker processes, `embedded` one ROLE=all process. */
  engine: Engine;
  rate: number;
  duration: number;
  latencyMs: number;
  drainTimeout: number;
  /** After LeadRelay's steady load: this many leads at once (`e2e --then-burst`); Node-RED gets none. */
  thenBurst: number;
}

/** Where Node-RED is installed: outside the repository, kept between runs. */
export const NODE_RED_DIR = join(tmpdir(), 'leadrelay-bench-peer', `node-red-${NODE_RED_VERSION}`);

/** `npm install --prefix NODE_RED_DIR node-red@VERSION` unless it is there; throws one line when it fails. */
async function installNodeRed(): Promise<string> {
  const main = join(NODE_RED_DIR, 'node_modules/node-red/red.js');
  const pkg = join(NODE_RED_DIR, 'node_modules/node-red/package.json');
  if (existsSync(main) && JSON.parse(readFileSync(pkg, 'utf8')).version === NODE_RED_VERSION) return main;
  mkdirSync(NODE_RED_DIR, { recursive: true });
  log(`installing Node-RED ${NODE_RED_VERSION} from npm into ${NODE_RED_DIR}`);
  // npm run's own settings (workspace, prefix, …) must not reach this install: only npm's config files do.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  try {
    await promisify(execFile)(
      'npm',
      ['install', '--prefix', NODE_RED_DIR, `node-red@${NODE_RED_VERSION}`, '--no-audit', '--no-fund'],
      { env, timeout: 600_000, maxBuffer: 16 * 2 ** 20 },
    );
  } catch (error) {
    const e = error as { stderr?: string; message: string };
    const reason = (e.stderr ?? e.message).trim().split('\n').filter(Boolean).at(-1) ?? e.message;
    throw new Error(`peer: could not install node-red@${NODE_RED_VERSION} from npm into ${NODE_RED_DIR}: ${reason}`);
  }
  if (!existsSync(main)) throw new Error(`peer: npm installed node-red@${NODE_RED_VERSION} without ${main}`);
  return main;
}

/** The flow: POST /lead forwarded to `destination`, answered 200 once the destination answered; GET /health. */
function flow(destination: string) {
  return [
    { id: 'bench', type: 'tab', label: 'bench' },
    { id: 'in', type: 'http in', z: 'bench', url: '/lead', method: 'post', upload: false, wires: [['forward']] },
    {
      id: 'forward',
      type: 'http request',
      z: 'bench',
      method: 'POST',
      ret: 'txt',
      paytoqs: 'ignore',
      url: destination,
      persist: true,
      senderr: false,
      headers: [],
      wires: [['answer']],
    },
    {
      // The destination's response headers must not become ours.
      id: 'answer',
      type: 'change',
      z: 'bench',
      rules: [
        { t: 'delete', p: 'headers', pt: 'msg' },
        { t: 'set', p: 'payload', pt: 'msg', to: 'ok', tot: 'str' },
      ],
      wires: [['out']],
    },
    { id: 'out', type: 'http response', z: 'bench', statusCode: '200', headers: {}, wires: [] },
    { id: 'health', type: 'http in', z: 'bench', url: '/health', method: 'get', wires: [['healthy']] },
    { id: 'healthy', type: 'http response', z: 'bench', statusCode: '200', headers: {}, wires: [] },
  ];
}

interface NodeRed {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts Node-RED on a free loopback port with its own settings and flow; no editor, no admin API. */
async function startNodeRed(main: string, dir: string, destination: string): Promise<NodeRed> {
  const userDir = join(dir, 'node-red');
  mkdirSync(userDir, { recursive: true });
  const port = await freePort();
  writeFileSync(join(userDir, 'flows.json'), JSON.stringify(flow(destination)));
  const settings = {
    uiHost: '127.0.0.1',
    uiPort: port,
    httpAdminRoot: false,
    httpNodeRoot: '/',
    userDir,
    flowFile: 'flows.json',
    credentialSecret: false,
    diagnostics: { enabled: false, ui: false },
    runtimeState: { enabled: false, ui: false },
    telemetry: { enabled: false },
    externalModules: { autoInstall: false, palette: { allowInstall: false } },
    logging: { console: { level: 'warn', metrics: false, audit: false } },
  };
  const settingsFile = join(userDir, 'settings.js');
  writeFileSync(settingsFile, `module.exports = ${JSON.stringify(settings, null, 2)};\n`);
  const logPath = join(dir, 'node-red.log');
  const out = createWriteStream(logPath, { flags: 'a' });
  const child = spawn(process.execPath, [main, '--settings', settingsFile, '--userDir', userDir], {
    cwd: userDir,
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.pipe(out, { end: false });
  child.stderr!.pipe(out, { end: false });
  const exited = new Promise<void>((res) => child.once('exit', () => res()));
  const alive = () => child.exitCode === null && child.signalCode === null;
  const stop = async () => {
    if (!alive()) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(killer);
  };
  onCleanup(stop);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (!alive()) throw new Error(`Node-RED exited on start:\n${readFileSync(logPath, 'utf8').slice(-3000)}`);
    try {
      if ((await fetch(`${url}/health`)).ok) return { url, child, stop };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`Node-RED did not answer ${url}/health in 60 s (log: ${logPath})`);
    await sleep(200);
  }
}

/** Node-RED offered the e2e load: the same leads, rate and duration, to an emulator of its own. */
async function measureNodeRed(o: PeerOptions, main: string, dir: string) {
  const runId = newRunId();
  const emulator = await startHttpEmulator({ maxLog: 1_000_000 });
  onCleanup(() => emulator.close());
  emulator.setLatency(o.latencyMs);
  const nodeRed = await startNodeRed(main, dir, emulator.hookUrl);
  log(`Node-RED ${NODE_RED_VERSION} at ${nodeRed.url}; emulator ${emulator.hookUrl} answering after ${o.latencyMs} ms`);
  // A forwarder passes no key on: each request it makes is one record, so a lead sent twice shows.
  const load = new LeadLoad(runId, [`${nodeRed.url}/lead`], false);
  log(`Node-RED: sending ${o.rate}/s for ${o.duration} s (${Math.round(o.rate * o.duration)} leads)`);
  const cpuBefore = cpuSeconds(nodeRed.child.pid);
  const { wallStart, sendSeconds } = await load.steady(o.rate, o.duration);
  const accepted = load.answered(200);
  const missing = await waitForRecords(emulator.records, accepted, o.drainTimeout);
  if (missing > 0) log(`Node-RED: gave up waiting after ${o.drainTimeout} s: ${missing} not delivered`);
  const cpu = cpuSeconds(nodeRed.child.pid) - cpuBefore;
  await nodeRed.stop();
  await emulator.close();
  const bySeq = recordsBySeq(emulator.records);
  const lost = accepted.filter((seq) => !bySeq.has(seq)).length;
  return {
    engine: `node-red ${NODE_RED_VERSION}`,
    rateAchieved: Math.round((load.sent.size / sendSeconds) * 10) / 10,
    sent: load.sent.size,
    skippedOverInFlightCap: load.skipped,
    statuses: load.statuses(),
    accepted: accepted.length,
    delivered: accepted.length - lost,
    lost,
    duplicateRecords: [...bySeq.values()].filter((list) => list.length > 1).length,
    deliveredPerSWhileSending: deliveredPerSWhileSending(emulator.records, wallStart, sendSeconds),
    cpuSeconds: Math.round(cpu * 10) / 10,
    sendToAck: sendToReceipt(load, accepted, bySeq),
  };
}

const ratio = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 100) / 100 : null);

function table(relay: E2eSummary, peer: Awaited<ReturnType<typeof measureNodeRed>>, layout: string): string {
  const r = relay.latencyMs.sendToAck;
  const p = peer.sendToAck;
  const rows: [string, string | number, string | number, string | number | null][] = [
    ['', `LeadRelay (${layout})`, `Node-RED ${NODE_RED_VERSION}`, 'LeadRelay / Node-RED'],
    ['offered', `${relay.sent} at ${relay.rateAchieved}/s`, `${peer.sent} at ${peer.rateAchieved}/s`, ''],
    ['accepted', relay.accepted, peer.accepted, ''],
    [
      'delivered/s while sending',
      relay.deliveredPerSWhileSending,
      peer.deliveredPerSWhileSending,
      ratio(relay.deliveredPerSWhileSending, peer.deliveredPerSWhileSending),
    ],
    ['post → destination p50 ms', r.p50, p.p50, ''],
    ['post → destination p90 ms', r.p90, p.p90, ''],
    ['post → destination p99 ms', r.p99, p.p99, ratio(r.p99, p.p99)],
    ['post → destination max ms', r.max, p.max, ''],
    ['lost', relay.lost, peer.lost, ''],
    ['twice', relay.duplicateRecords, peer.duplicateRecords, ''],
  ];
  const costs = relay.costs as Record<string, unknown> | undefined;
  for (const [key, label] of [
    ['processCpuMsPerLead', 'server CPU ms per lead'],
    ['apiCpuMsPerLead', 'api CPU ms per lead'],
    ['workerCpuMsPerDelivery', 'worker CPU ms per delivery'],
    ['workerStatementMsPerDelivery', 'worker statement ms per delivery'],
  ] as const) {
    if (typeof costs?.[key] === 'number') rows.push([label, costs[key] as number, '', '']);
  }
  if (relay.burst) {
    rows.push([
      `burst of ${relay.burst.leads}: last delivered after ms`,
      relay.burst.lastDeliveredAfterMs ?? 'not all',
      '',
      '',
    ]);
  }
  const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((row) => String(row[i] ?? '').length)));
  return rows
    .map((row) =>
      row
        .map((cell, i) => String(cell ?? '').padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

export async function runPeer(o: PeerOptions): Promise<boolean> {
  let main: string;
  try {
    main = await installNodeRed();
  } catch (error) {
    console.error((error as Error).message);
    return false;
  }
  const dir = scratchDir(newRunId());
  log('machine', machine());
  const peer = await measureNodeRed(o, main, dir);
  log(`Node-RED: ${peer.delivered} of ${peer.accepted} delivered, p99 ${peer.sendToAck.p99} ms; now LeadRelay`);
  const split = o.engine !== 'embedded';
  const relay = await measureE2e(
    {
      engine: o.engine,
      split,
      workers: 1,
      apis: 1,
      thenBurst: o.thenBurst,
      rate: o.rate,
      duration: o.duration,
      latencyMs: o.latencyMs,
      crash: false,
      killEvery: 5,
      drainTimeout: o.drainTimeout,
    },
    false,
  );
  const layout = `${o.engine}, ${relay.summary.processes}`;
  const s = relay.summary;
  console.info(
    JSON.stringify(
      {
        bench: 'peer',
        machine: machine(),
        rate: o.rate,
        duration: o.duration,
        emulatorLatencyMs: o.latencyMs,
        latency: 'from the post to the destination emulator receiving the lead (sendToAck)',
        ratios: {
          deliveredPerSWhileSending: ratio(s.deliveredPerSWhileSending, peer.deliveredPerSWhileSending),
          p99: ratio(s.latencyMs.sendToAck.p99, peer.sendToAck.p99),
        },
        nodeRed: peer,
        leadRelay: s,
      },
      null,
      2,
    ),
  );
  console.info(`\n${table(s, peer, layout)}`);
  const ok = relay.ok && peer.lost === 0 && peer.duplicateRecords === 0 && peer.accepted > 0;
  if (!ok)
    console.error(
      `FAILED: LeadRelay ${relay.ok ? 'ok' : 'lost or doubled leads'}; Node-RED ${peer.lost} lost, ${peer.duplicateRecords} twice`,
    );
  return ok;
}
