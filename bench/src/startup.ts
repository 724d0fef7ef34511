// Start-up time of the app as a person runs it: from spawning `npm start` at the repository root
// (a fresh DATA_DIR in /tmp, a free port, LOG_LEVEL=warn, no DATABASE_URL) to the first 200 of
// GET /api/health. Per run, on one DATA_DIR:
//   cold        the first start: the embedded PostgreSQL's cluster is created
//   warm        the next start, after a clean SIGTERM stop (web and server already built)
//   afterKill9  the start after that one was kill -9'd: the cluster left running is taken over
//   warmDirect  `node --enable-source-maps dist/main.js` in apps/server after a clean stop: no npm,
//               no build checks
// Each start runs in a process group of its own (spawned detached), stopped with a signal to the
// whole group; the app stops its cluster on SIGTERM, and the bench checks that it did.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { delimiter, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { clusterDirOf, clusterPids, embeddedDatabaseUrl, postmasterOf, stopLeftoverPostgres } from './embedded';
import {
  buildServer,
  freePort,
  log,
  machine,
  newRunId,
  onCleanup,
  ROOT,
  SERVER_DIR,
  SERVER_NODE_FLAGS,
  scratchDir,
  serverVersion,
} from './harness';
import { commandLine, groupMemory, processesWhere, processGroup, rssOf } from './observe';

export interface StartupOptions {
  runs: number;
}

type Phase = 'cold' | 'warm' | 'afterKill9' | 'warmDirect';
const PHASES: Phase[] = ['cold', 'warm', 'afterKill9', 'warmDirect'];

interface Start {
  /** Spawn to the first 200 of /api/health. */
  ms: number;
  appRssMiB: number;
  /** npm and sh processes of `npm start`, resident beside the app while it runs. */
  wrappers: { processes: number; rssSumMiB: number; pssMiB: number };
  postgres: { processes: number; pssMiB: number; rssSumMiB: number };
  postmasterPid?: number;
  /** Which builds ran during the start (from its output): none when both were up to date. */
  builds: string[];
}

const START_TIMEOUT_MS = 180_000;
const STOP_TIMEOUT_MS = 30_000;
const POLL_MS = 20;

/**
 * PATH as in a shell: without the node_modules/.bin folders `npm run bench` put first, so `npm`
 * runs on the machine's own Node as it does for a person typing `npm start`.
 */
function shellPath(): string {
  return (process.env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => dir && !dir.includes('/node_modules/'))
    .join(delimiter);
}

function envFor(dataDir: string, port: number): NodeJS.ProcessEnv {
  return {
    PATH: shellPath(),
    HOME: process.env.HOME,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    // npm would otherwise ask the registry now and then whether it is up to date: traffic stays on 127.0.0.1.
    npm_config_update_notifier: 'false',
  };
}

/** Sends `signal` to the process group and waits until none of its processes is left. */
async function stopGroup(group: number, signal: 'SIGTERM' | 'SIGKILL'): Promise<{ ms: number; forced: boolean }> {
  const started = performance.now();
  const signalGroup = (s: NodeJS.Signals) => {
    try {
      process.kill(-group, s);
    } catch {
      // already gone
    }
  };
  signalGroup(signal);
  for (let waited = 0; processGroup(group).length > 0; waited += 50) {
    if (waited >= STOP_TIMEOUT_MS) {
      signalGroup('SIGKILL');
      for (let i = 0; i < 100 && processGroup(group).length > 0; i++) await sleep(50);
      return { ms: Math.round(performance.now() - started), forced: true };
    }
    await sleep(50);
  }
  return { ms: Math.round(performance.now() - started), forced: false };
}

function buildsIn(output: string): string[] {
  const builds: string[] = [];
  if (output.includes('server built into')) builds.push('server');
  if (/built in \d|vite v\d/.test(output)) builds.push('web');
  return builds;
}

export async function runStartup(o: StartupOptions): Promise<boolean> {
  const runId = newRunId();
  const dir = scratchDir(runId);
  const before = machine();
  log('machine', before);
  const userEnv = envFor(dir, 0);
  const npmVersion = execFileSync('npm', ['--version'], { env: userEnv, encoding: 'utf8' }).trim();
  const npmNode = execFileSync('node', ['--version'], { env: userEnv, encoding: 'utf8' }).trim();
  // Both builds up to date before the first start, so that "cold" is the cluster's creation, not a build.
  await buildServer();
  if (!statSync(join(ROOT, 'apps/web/dist/index.html'), { throwIfNoEntry: false })) {
    log('building the web app once (apps/web/dist is missing)');
    execFileSync('npm', ['run', 'build', '-w', '@leadrelay/web'], { cwd: ROOT, env: userEnv, stdio: 'ignore' });
  }

  let running: { group: number; clusterDir: string } | undefined;
  onCleanup(async () => {
    if (running) await stopGroup(running.group, 'SIGTERM');
    if (running) await stopLeftoverPostgres(running.clusterDir);
  });

  const problems: string[] = [];
  const starts: Record<Phase, Start[]> = { cold: [], warm: [], afterKill9: [], warmDirect: [] };
  const cleanStops: number[] = [];
  let survivedKill9 = 0;
  let tookOver = 0;
  let postgres = 'unknown';

  const startOnce = async (kind: 'npm' | 'direct', dataDir: string, logPath: string): Promise<Start> => {
    const port = await freePort();
    const env = envFor(dataDir, port);
    const logFrom = statSync(logPath, { throwIfNoEntry: false })?.size ?? 0;
    const fd = openSync(logPath, 'a');
    const started = performance.now();
    // A file, not a pipe, for the output: the app outlives npm when the group is signalled.
    const child: ChildProcess =
      kind === 'npm'
        ? spawn('npm', ['start'], { cwd: ROOT, env, detached: true, stdio: ['ignore', fd, fd] })
        : spawn(process.execPath, [...SERVER_NODE_FLAGS, 'dist/main.js'], {
            cwd: SERVER_DIR,
            env,
            detached: true,
            stdio: ['ignore', fd, fd],
          });
    closeSync(fd);
    let spawnError: Error | undefined;
    child.once('error', (error) => {
      spawnError = error;
    });
    const group = child.pid;
    if (!group) throw new Error(`could not start ${kind === 'npm' ? 'npm start' : 'node dist/main.js'}`);
    running = { group, clusterDir: clusterDirOf(dataDir) };
    const output = () => readFileSync(logPath, 'utf8').slice(logFrom);
    for (;;) {
      if (spawnError || child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`${kind} start exited (${spawnError?.message ?? child.exitCode}):\n${output().slice(-3000)}`);
      }
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(2_000) });
        await res.arrayBuffer();
        if (res.status === 200) break;
      } catch {
        // not listening yet
      }
      if (performance.now() - started > START_TIMEOUT_MS) {
        throw new Error(`no 200 from /api/health within ${START_TIMEOUT_MS / 1000} s (log: ${logPath})`);
      }
      await sleep(POLL_MS);
    }
    const ms = Math.round(performance.now() - started);
    const members = processGroup(group);
    const app = members.find((pid) => commandLine(pid).includes('dist/main.js'));
    const wrappers = members.filter((pid) => pid !== app);
    const cluster = running.clusterDir;
    const { processes, rssSumMiB, pssMiB } = groupMemory(wrappers);
    return {
      ms,
      appRssMiB: rssOf(app)?.rssMiB ?? 0,
      wrappers: { processes, rssSumMiB, pssMiB },
      postgres: groupMemory(clusterPids(cluster)),
      postmasterPid: postmasterOf(cluster)?.pid,
      builds: buildsIn(output()),
    };
  };

  /** After a clean stop the app must have stopped its cluster; one left running is a fault, stopped here. */
  const checkStopped = async (clusterDir: string, after: string) => {
    if (await stopLeftoverPostgres(clusterDir)) problems.push(`${after}: the embedded PostgreSQL was left running`);
  };

  const loadBefore = loadavg().map((l) => l.toFixed(2));
  for (let run = 1; run <= o.runs; run++) {
    const dataDir = join(dir, `run${run}`);
    mkdirSync(dataDir);
    const clusterDir = clusterDirOf(dataDir);
    const logPath = join(dir, `run${run}.log`);
    try {
      const cold = await startOnce('npm', dataDir, logPath);
      if (run === 1) postgres = await serverVersion(embeddedDatabaseUrl(dataDir));
      starts.cold.push(cold);
      let stop = await stopGroup(running!.group, 'SIGTERM');
      if (stop.forced) problems.push(`run ${run}, cold: the app did not stop within ${STOP_TIMEOUT_MS / 1000} s`);
      cleanStops.push(stop.ms);
      await checkStopped(clusterDir, `run ${run}, cold`);

      const warm = await startOnce('npm', dataDir, logPath);
      starts.warm.push(warm);
      await stopGroup(running!.group, 'SIGKILL');
      const survivor = postmasterOf(clusterDir)?.pid;
      if (survivor) survivedKill9 += 1;

      const afterKill9 = await startOnce('npm', dataDir, logPath);
      starts.afterKill9.push(afterKill9);
      if (survivor && afterKill9.postmasterPid === survivor) tookOver += 1;
      stop = await stopGroup(running!.group, 'SIGTERM');
      if (stop.forced)
        problems.push(`run ${run}, after kill -9: the app did not stop within ${STOP_TIMEOUT_MS / 1000} s`);
      cleanStops.push(stop.ms);
      await checkStopped(clusterDir, `run ${run}, after kill -9`);

      const direct = await startOnce('direct', dataDir, logPath);
      starts.warmDirect.push(direct);
      stop = await stopGroup(running!.group, 'SIGTERM');
      if (stop.forced) problems.push(`run ${run}, direct: the app did not stop within ${STOP_TIMEOUT_MS / 1000} s`);
      cleanStops.push(stop.ms);
      await checkStopped(clusterDir, `run ${run}, direct`);
      running = undefined;
      log(
        `run ${run}/${o.runs}: cold ${cold.ms} ms, warm ${warm.ms} ms, after kill -9 ${afterKill9.ms} ms, node dist/main.js ${direct.ms} ms`,
      );
    } catch (error) {
      problems.push(`run ${run}: ${(error as Error).message}`);
      if (running) await stopGroup(running.group, 'SIGTERM');
      await stopLeftoverPostgres(clusterDir);
      running = undefined;
      break;
    }
  }
  const loadAfter = loadavg().map((l) => l.toFixed(2));

  // Nothing of this bench may outlive it: no process whose command line names its folder.
  const leftovers = processesWhere(() => true).filter((pid) => pid !== process.pid && commandLine(pid).includes(dir));
  if (leftovers.length) problems.push(`processes left running: ${leftovers.map((p) => `${p} ${commandLine(p)}`)}`);

  const stats = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    const median = sorted.length % 2 ? sorted[mid]! : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
    return {
      min: sorted[0] ?? null,
      median: sorted.length ? Math.round(median * 10) / 10 : null,
      max: sorted.at(-1) ?? null,
    };
  };
  const per = <T>(pick: (s: Start) => T) =>
    Object.fromEntries(PHASES.map((phase) => [phase, starts[phase].map(pick)])) as Record<Phase, T[]>;
  const ms = per((s) => s.ms);
  const summary = {
    bench: 'startup',
    runs: o.runs,
    completedRuns: starts.warmDirect.length,
    machine: before,
    npm: `npm ${npmVersion} on node ${npmNode} (PATH without node_modules/.bin, as in a shell); the app on node from node_modules/.bin`,
    direct: `${process.execPath} ${SERVER_NODE_FLAGS.join(' ')} dist/main.js (node ${process.version})`,
    postgres,
    loadAverage: { before: loadBefore.join(' '), after: loadAfter.join(' ') },
    timeToHealthMs: Object.fromEntries(PHASES.map((phase) => [phase, { ...stats(ms[phase]), all: ms[phase] }])),
    rightAfterStart: {
      unit: 'MiB',
      note: 'app: VmRSS of the node server; npmWrappers: the npm and sh processes of npm start; postgres: postmaster + all its children, pss = shared pages divided among them (quote this), rssSum = shared memory counted once per process',
      ...Object.fromEntries(
        PHASES.map((phase) => [
          phase,
          {
            appRss: stats(per((s) => s.appRssMiB)[phase]),
            npmWrappers: {
              processes: stats(per((s) => s.wrappers.processes)[phase]),
              rssSum: stats(per((s) => s.wrappers.rssSumMiB)[phase]),
              pss: stats(per((s) => s.wrappers.pssMiB)[phase]),
            },
            postgres: {
              processes: stats(per((s) => s.postgres.processes)[phase]),
              pss: stats(per((s) => s.postgres.pssMiB)[phase]),
              rssSum: stats(per((s) => s.postgres.rssSumMiB)[phase]),
            },
          },
        ]),
      ),
    },
    sigtermStopMs: stats(cleanStops),
    buildsDuringStart: Object.fromEntries(
      PHASES.map((phase) => [phase, starts[phase].map((s) => s.builds.join('+') || 'none')]),
    ),
    kill9: { postgresSurvived: survivedKill9, takenOverAtNextStart: tookOver, of: starts.afterKill9.length },
    problems,
  };
  console.info(JSON.stringify(summary, null, 2));
  return problems.length === 0 && starts.warmDirect.length === o.runs;
}
