// LeadRelay no longer ships PGlite, but a data folder from before PostgreSQL can only be read by
// the PGlite that wrote it. The one-off import fetches exactly that version from the npm registry
// into a cache folder and loads it from there, so the app itself never depends on the package.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The PGlite of the last LeadRelay with an embedded PGlite database (DATA_DIR/pglite). */
export const PGLITE_VERSION = '0.5.16';
const PACKAGE = '@electric-sql/pglite';

/** What the copy reads with: PGlite's query, and pg's client too. */
export interface SqlSource {
  query<T extends object = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
}

/** The part of a PGlite instance the import uses (PGlite's own types stay out of the app). */
export interface PgliteLike extends SqlSource {
  close(): Promise<void>;
}

export interface PgliteModule {
  version: string;
  /** Opens the database files in `dataDir` (an old install's DATA_DIR/pglite). */
  create(dataDir: string): Promise<PgliteLike>;
}

export interface LoadPgliteOptions {
  version?: string;
  /** Where npm installs the package; default `<os tmpdir>/leadrelay-pglite-<version>`. */
  cacheDir?: string;
  log?: (line: string) => void;
}

interface PgliteExports {
  PGlite?: { create(dataDir: string): Promise<PgliteLike> };
}

export async function loadPglite(options: LoadPgliteOptions = {}): Promise<PgliteModule> {
  const version = options.version ?? PGLITE_VERSION;
  const cacheDir = options.cacheDir ?? join(tmpdir(), `leadrelay-pglite-${version}`);
  const packageDir = join(cacheDir, 'node_modules', ...PACKAGE.split('/'));
  let entry = installedEntry(packageDir, version);
  if (!entry) {
    options.log?.(`fetching ${PACKAGE}@${version} from the npm registry into ${cacheDir}`);
    mkdirSync(cacheDir, { recursive: true });
    await runNpm(
      [
        'install',
        '--no-save',
        '--no-package-lock',
        '--no-audit',
        '--no-fund',
        '--prefix',
        cacheDir,
        `${PACKAGE}@${version}`,
      ],
      cacheDir,
    );
    entry = installedEntry(packageDir, version);
    if (!entry) throw new Error(`npm reported success but ${packageDir} holds no ${PACKAGE}@${version}`);
  }
  let loaded: PgliteExports;
  try {
    // By absolute file URL: the cache folder is outside every node_modules the app resolves from.
    loaded = (await import(pathToFileURL(entry).href)) as PgliteExports;
  } catch (error) {
    throw new Error(`cannot load ${entry} (delete ${cacheDir} to fetch it again): ${(error as Error).message}`);
  }
  const pglite = loaded.PGlite;
  if (typeof pglite?.create !== 'function') throw new Error(`${entry} exports no PGlite.create`);
  return { version, create: (dataDir) => pglite.create(dataDir) };
}

/** The package's ESM entry file when the wanted version is installed in full, else undefined. */
function installedEntry(packageDir: string, version: string): string | undefined {
  const manifestPath = join(packageDir, 'package.json');
  if (!existsSync(manifestPath)) return undefined;
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
    version?: string;
    module?: string;
    main?: string;
    exports?: Record<string, { import?: string | { default?: string } } | undefined>;
  };
  if (manifest.version !== version) return undefined;
  const esm = manifest.exports?.['.']?.import;
  const relative = (typeof esm === 'string' ? esm : esm?.default) ?? manifest.module ?? manifest.main;
  if (!relative) return undefined;
  const entry = join(packageDir, relative);
  return existsSync(entry) ? entry : undefined;
}

function runNpm(args: string[], cwd: string): Promise<void> {
  // Under `npm run` the npm that started us (npm_execpath, a JS file for node); else npm on PATH.
  const execPath = process.env.npm_execpath;
  const viaNode = !!execPath && /\.[cm]?js$/.test(execPath);
  const command = viaNode ? process.execPath : (execPath ?? 'npm');
  const argv = viaNode && execPath ? [execPath, ...args] : args;
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      // npm is npm.cmd on Windows, which only a shell runs.
      shell: !execPath && process.platform === 'win32',
    });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (error) => reject(new Error(`cannot run npm (${command}): ${error.message}`)));
    child.on('close', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`npm ${args.join(' ')} failed (exit code ${code}):\n${output.trim()}`));
    });
  });
}
