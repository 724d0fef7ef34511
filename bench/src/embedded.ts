// The embedded PostgreSQL of a server started without DATABASE_URL (--engine embedded): a cluster
// in DATA_DIR/postgres whose postmaster.pid says where it listens (line 4: port, line 5: socket
// folder). The bench reads the database through that socket as the cluster's superuser (what
// `psql -h DATA_DIR/postgres -U postgres leadrelay` does), counts the cluster's processes, and
// makes sure no cluster outlives a run.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { childrenOf, commandLine } from './observe';

export const clusterDirOf = (dataDir: string) => join(dataDir, 'postgres');

interface Postmaster {
  pid: number;
  port: number;
  socketDir: string;
}

function readPostmasterPid(clusterDir: string): Postmaster | undefined {
  try {
    const lines = readFileSync(join(clusterDir, 'postmaster.pid'), 'utf8').split('\n');
    const pid = Number(lines[0]);
    if (!Number.isInteger(pid) || pid <= 0) return undefined;
    return { pid, port: Number(lines[3]), socketDir: lines[4]?.trim() ?? '' };
  } catch {
    return undefined;
  }
}

/** The running postmaster of this cluster (the pid file's process, when it is this cluster's postgres). */
export function postmasterOf(clusterDir: string): Postmaster | undefined {
  const found = readPostmasterPid(clusterDir);
  if (!found) return undefined;
  const args = commandLine(found.pid);
  return /postgres/.test(args) && args.includes(` ${clusterDir} `) ? found : undefined;
}

/** The postmaster and every process it started (backends, checkpointer, WAL writer, …); [] when stopped. */
export function clusterPids(clusterDir: string): number[] {
  const postmaster = postmasterOf(clusterDir);
  return postmaster ? [postmaster.pid, ...childrenOf(postmaster.pid)] : [];
}

/** A connection string for the bench's own reads of the server's database `leadrelay`. */
export function embeddedDatabaseUrl(dataDir: string): string {
  const postmaster = postmasterOf(clusterDirOf(dataDir));
  if (!postmaster?.socketDir) throw new Error(`no embedded PostgreSQL is running in ${clusterDirOf(dataDir)}`);
  const url = new URL('postgresql://postgres@localhost/leadrelay');
  url.searchParams.set('host', postmaster.socketDir);
  url.searchParams.set('port', String(postmaster.port));
  return url.toString();
}

/**
 * Stops a cluster left running once its app is gone (a kill -9, or a SIGKILL after a stop that
 * hung): SIGINT is PostgreSQL's fast shutdown, SIGQUIT after 30 s its immediate one. Returns
 * whether there was one to stop.
 */
export async function stopLeftoverPostgres(clusterDir: string): Promise<boolean> {
  const postmaster = postmasterOf(clusterDir);
  if (!postmaster) return false;
  for (const [signal, waitMs] of [
    ['SIGINT', 30_000],
    ['SIGQUIT', 10_000],
  ] as const) {
    try {
      process.kill(postmaster.pid, signal);
    } catch {
      return true;
    }
    for (let waited = 0; waited < waitMs && postmasterOf(clusterDir); waited += 100) await sleep(100);
    if (!postmasterOf(clusterDir)) return true;
  }
  throw new Error(`the embedded PostgreSQL in ${clusterDir} (pid ${postmaster.pid}) did not stop`);
}
