// The built server (dist/main.js, what `npm start` runs) as a child process on a data folder of its
// own, for the tests of what only a real process shows: the embedded PostgreSQL across kill -9,
// two apps on one folder, the messages printed at start.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export { freePort } from './free-port';

export const SERVER_ROOT = resolve(import.meta.dirname, '../..');
export const OWNER = { login: 'owner@example.com', password: 'Owner1234' };

/** Builds dist/ when a source is newer (build.mjs skips otherwise). */
export function buildServer(): void {
  execFileSync(process.execPath, [join(SERVER_ROOT, 'build.mjs')], { cwd: SERVER_ROOT, stdio: 'pipe' });
}

/** A data folder for a test, in the temp dir; as root the cluster's own user must reach it (0755). */
export function scratchDataDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(dir, 0o755);
  return dir;
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  stderr(): string;
  /** Resolves with the exit code (or the signal's name). */
  exited: Promise<number | string>;
}

export function startServer(dataDir: string, port: number, env: NodeJS.ProcessEnv = {}): ServerProcess {
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    OWNER_LOGIN: OWNER.login,
    OWNER_PASSWORD: OWNER.password,
    // Servers of parallel test files must not fight over the parser SMTP port.
    PARSER_SMTP_PORT: 'off',
    ...env,
  };
  delete childEnv.DATABASE_URL;
  const child = spawn(process.execPath, ['dist/main.js'], { cwd: SERVER_ROOT, env: childEnv });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk) => {
    out += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    err += chunk;
  });
  const exited = new Promise<number | string>((done) => child.on('exit', (code, signal) => done(code ?? signal ?? -1)));
  return { child, url: `http://127.0.0.1:${port}`, output: () => out + err, stderr: () => err, exited };
}

/** Waits for /api/health; fails with what the server printed when it exits or takes too long. */
export async function whenUp(server: ServerProcess, withinMs = 60_000): Promise<number> {
  const started = Date.now();
  let exited = false;
  void server.exited.then(() => {
    exited = true;
  });
  while (Date.now() - started < withinMs) {
    if (exited) throw new Error(`the server exited:\n${server.output()}`);
    try {
      if ((await fetch(`${server.url}/api/health`)).ok) return Date.now() - started;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  server.child.kill('SIGKILL');
  throw new Error(`the server did not answer within ${withinMs} ms:\n${server.output()}`);
}

export async function api<T = unknown>(
  server: ServerProcess,
  method: string,
  path: string,
  token?: string,
  body?: unknown,
): Promise<{ status: number; json: T }> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: (text ? JSON.parse(text) : null) as T };
}

export async function ownerToken(server: ServerProcess): Promise<string> {
  const res = await api<{ accessToken: string }>(server, 'POST', '/api/auth/login', undefined, OWNER);
  if (res.status !== 200) throw new Error(`owner login failed: ${JSON.stringify(res.json)}`);
  return res.json.accessToken;
}
