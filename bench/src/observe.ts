// Cheap "where does the time go" probes: CPU seconds and memory per process from /proc, and samples of what
// the benchmark database's backends are doing (pg_stat_activity), taken during a run.
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';

const CLK_TCK = 100;

/** User + system CPU seconds a process has used so far; 0 when it is gone. */
export function cpuSeconds(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) start at index 2 ("state").
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(rest[11]) + Number(rest[12])) / CLK_TCK;
  } catch {
    return 0;
  }
}

/** Samples pg_stat_activity of one database every `everyMs`; `stop()` gives the tallies. */
export function sampleActivity(databaseUrl: string, everyMs = 200) {
  const client = new pg.Client({ connectionString: databaseUrl });
  const tallies = new Map<string, number>();
  const backendPids = new Set<number>();
  let samples = 0;
  let running = true;
  const loop = (async () => {
    await client.connect();
    const db = new URL(databaseUrl).pathname.slice(1);
    while (running) {
      const { rows } = await client.query<{ pid: number; state: string | null; wait: string | null }>(
        `select pid, state, coalesce(wait_event_type || ':' || wait_event, 'on CPU') as wait
         from pg_stat_activity where datname = $1 and pid <> pg_backend_pid() and backend_type = 'client backend'`,
        [db],
      );
      samples += 1;
      for (const row of rows) {
        backendPids.add(row.pid);
        const key = row.state === 'active' ? `active, ${row.wait}` : (row.state ?? 'unknown');
        tallies.set(key, (tallies.get(key) ?? 0) + 1);
      }
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    backendPids,
    async stop() {
      running = false;
      await loop.catch(() => undefined);
      await client.end().catch(() => undefined);
      // Average number of connections in each state per sample.
      const perSample: Record<string, number> = {};
      for (const [k, v] of [...tallies].sort((a, b) => b[1] - a[1])) {
        perSample[k] = Math.round((v / Math.max(1, samples)) * 100) / 100;
      }
      return { samples, averageConnections: perSample };
    },
  };
}

/** ppid, process group and state of a process from /proc/<pid>/stat; undefined when it is gone. */
export function processStat(pid: number): { ppid: number; pgrp: number; state: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: rest[0]!, ppid: Number(rest[1]), pgrp: Number(rest[2]) };
  } catch {
    return undefined;
  }
}

/** Every live (not zombie) process on the machine that `match` accepts, by its /proc/<pid>/stat. */
export function processesWhere(match: (stat: NonNullable<ReturnType<typeof processStat>>) => boolean): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = processStat(Number(entry));
    if (stat && stat.state !== 'Z' && match(stat)) pids.push(Number(entry));
  }
  return pids;
}

export const childrenOf = (pid: number) => processesWhere((s) => s.ppid === pid);
export const processGroup = (pgid: number) => processesWhere((s) => s.pgrp === pgid);

export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
  } catch {
    return '';
  }
}

const MIB = 1024 * 1024;
const mib = (bytes: number) => Math.round((bytes / MIB) * 10) / 10;

/** `<Field>: <n> kB` of a /proc file, in bytes; 0 when absent. */
function kbField(text: string, field: string): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text);
  return m ? Number(m[1]) * 1024 : 0;
}

/** Resident memory of one process (VmRSS) and its peak over the process's life (VmHWM), in MiB. */
export function rssOf(pid: number | undefined): { rssMiB: number; peakRssMiB: number } | undefined {
  if (!pid) return undefined;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return { rssMiB: mib(kbField(status, 'VmRSS')), peakRssMiB: mib(kbField(status, 'VmHWM')) };
  } catch {
    return undefined;
  }
}

/**
 * Memory of a group of processes (the embedded PostgreSQL: its postmaster and every child), in
 * MiB. `pss` divides each shared page among the processes that map it (from
 * /proc/<pid>/smaps_rollup), so the shared buffers count once: the figure to quote. `rssSum`
 * adds up each process's RSS, counting shared memory once per process that touched it.
 */
export function groupMemory(pids: number[]): { processes: number; pssMiB: number; rssSumMiB: number } {
  let pss = 0;
  let rss = 0;
  let processes = 0;
  for (const pid of pids) {
    try {
      const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      pss += kbField(rollup, 'Pss');
      rss += kbField(rollup, 'Rss');
      processes += 1;
    } catch {
      // gone meanwhile (a backend that disconnected)
    }
  }
  return { processes, pssMiB: mib(pss), rssSumMiB: mib(rss) };
}

export interface MemoryTargets {
  /** The LeadRelay server processes by name (a restarted worker keeps its name, with a new pid). */
  servers: { name: string; pid: number | undefined }[];
  /** The embedded PostgreSQL's processes (empty for --engine pg: a shared server is not ours to count). */
  postgresPids?: () => number[];
}

/**
 * Samples memory every `everyMs` while a run goes on; `stop()` gives, per server, its RSS at the
 * end and its lifetime peak (VmHWM), and for the embedded PostgreSQL its Pss and RSS sum at the
 * end and their largest sample.
 */
export function sampleMemory(targets: () => MemoryTargets, everyMs = 1000) {
  const peak = { pssMiB: 0, rssSumMiB: 0, processes: 0 };
  const take = () => {
    const pids = targets().postgresPids?.();
    if (!pids) return undefined;
    const now = groupMemory(pids);
    peak.pssMiB = Math.max(peak.pssMiB, now.pssMiB);
    peak.rssSumMiB = Math.max(peak.rssSumMiB, now.rssSumMiB);
    peak.processes = Math.max(peak.processes, now.processes);
    return now;
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    stop() {
      clearInterval(timer);
      const end = take();
      return {
        unit: 'MiB',
        servers: Object.fromEntries(targets().servers.map((s) => [s.name, rssOf(s.pid) ?? 'gone'])),
        embeddedPostgres: end && {
          note: 'postmaster + all its children; pss = shared pages divided among the processes (quote this), rssSum = shared buffers counted once per process that touched them; peak = largest 1-s sample',
          processes: end.processes,
          pssMiB: end.pssMiB,
          rssSumMiB: end.rssSumMiB,
          peakProcesses: peak.processes,
          peakPssMiB: peak.pssMiB,
          peakRssSumMiB: peak.rssSumMiB,
        },
      };
    },
  };
}
