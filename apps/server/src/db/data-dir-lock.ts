import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { StartupError } from './startup-error';

export class DataDirLockedError extends StartupError {
  constructor(dataDir: string, pid: number) {
    super(`Another LeadRelay process (pid ${pid}) is using DATA_DIR ${dataDir}; stop it or set DATA_DIR/DATABASE_URL`);
    this.name = 'DataDirLockedError';
  }
}

export interface DataDirLock {
  path: string;
  release(): void;
}

/** Whether the pid is taken, zombies included (signal 0 checks without sending anything). */
export function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the process is running: a zombie (killed, not yet reaped) holds nothing any more. */
export function isAlive(pid: number): boolean {
  return pidExists(pid) && !isZombie(pid);
}

function isZombie(pid: number): boolean {
  try {
    // /proc/<pid>/stat: "pid (comm) state ..."; comm may hold spaces and parentheses.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
  } catch {
    return false; // no /proc (macOS): signal 0 is all there is
  }
}

function readOwner(path: string): { pid: number; host: string } | null {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as { pid?: unknown; host?: unknown };
    if (typeof parsed.pid !== 'number') return null;
    return { pid: parsed.pid, host: typeof parsed.host === 'string' ? parsed.host : '' };
  } catch {
    return null;
  }
}

/**
 * One app per data folder: its embedded PostgreSQL is started, taken over and stopped by the app
 * that holds this lock (a second app would stop the first one's database). The lock file holds the
 * owner's pid; a lock left by a dead process on this host is taken over. We use a pid file
 * rather than an mtime-based lock so a restart right after a crash does not have to wait.
 */
export function lockDataDir(dataDir: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, 'leadrelay.lock');
  const me = JSON.stringify({ pid: process.pid, host: hostname() });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, me);
      closeSync(fd);
      let released = false;
      return {
        path,
        release() {
          if (released) return;
          released = true;
          if (readOwner(path)?.pid === process.pid) rmSync(path, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = readOwner(path);
      const stale = owner === null || (owner.host === hostname() && owner.pid !== process.pid && !isAlive(owner.pid));
      if (!stale) throw new DataDirLockedError(dataDir, owner.pid);
      rmSync(path, { force: true });
    }
  }
  throw new DataDirLockedError(dataDir, readOwner(path)?.pid ?? 0);
}
