// Cheap "where does the time go" probes: CPU seconds per process from /proc, and samples of what
// the benchmark database's backends are doing (pg_stat_activity), taken during a run.
import { readFileSync } from 'node:fs';
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
