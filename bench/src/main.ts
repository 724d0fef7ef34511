// npm run bench -w @leadrelay/bench -- <ingest|e2e|crash|peer|fb|startup|fuzz|profile> [options]; see bench/README.md.
import { parseArgs } from 'node:util';
import { runCeiling } from './ceiling';
import { runChaos } from './chaos';
import { runE2e } from './e2e';
import { runFb } from './fb';
import { runFuzz } from './fuzz';
import { benchDatabase, cleanup, type Engine, newRunId, scratchDir } from './harness';
import { runIngest } from './ingest';
import { NODE_RED_VERSION, runPeer } from './peer';
import { summarizeProfile } from './profile';
import { runStartup } from './startup';

const USAGE = `usage: npm run bench -w @leadrelay/bench -- <command> [options]
  ingest   autocannon against the webhook URL      --engine pg|owned|embedded --role api|all (pg: api, embedded: all only)
                                                   --connections 100 --duration 30 --warmup 5 --cpu-prof
                                                   --pg-setting synchronous_commit=off (diagnostic, pg only)
                                                   --with-ceiling (pg only: the ceiling run first, on the same database; prints the ratio)
                                                   --apis 1 (pg|owned: server processes, the connections shared out among them)
  ceiling  the yardstick: pgbench, one 1 KB row per transaction  --engine pg|owned --connections 100 (clients) --duration 30

  --engine owned: a cluster the bench owns (embedded binaries, durable, max_connections 300,
  pg_stat_statements; ingest prints the top statements), for ingest (api or all) and ceiling.
  e2e      steady rate to the http emulator         --engine pg|owned|embedded --split (pg only) --workers 1 --rate 200 --duration 30 --latency 50
                                                   --apis 1 (with --split: API processes, leads sent to each in turn)
                                                   --then-burst 0 (after the steady load: N leads, 100 at a time, until the last is delivered)
  crash    e2e with api + worker, worker kill -9'd  --rate 200 --duration 30 --kill-every 5 --drain-timeout 150 (pg only)
                                                   --plain (the receiver honours no Idempotency-Key: duplicates reported)
  peer     Node-RED ${NODE_RED_VERSION} (npm-installed into a scratch folder) and e2e, the same leads, side by side
                                                   --engine owned|pg (api + worker) |embedded (one process) --rate 1000 --duration 30 --latency 50
                                                   --then-burst 0 (LeadRelay only, as e2e)
  chaos    the chaos suite (CI): 2 api + 2 workers on an owned cluster, kill -9, PostgreSQL restart,
           pg_terminate_backend, a flaky plain receiver and amoCRM; ledger  --rate 10 --duration 50 --drain-timeout 150 --seed 20261124
  fb       Meta lead webhook → destination          --engine pg|owned|embedded --leads 200 --rate 20 --burst 100 --latency 50
                                                   --meta-duplicates 1 --drain-timeout 60 --cpu-prof
                                                   --graph server|bench (Graph emulator in the server or here) --split (pg only)
  startup  npm start to the first 200 of /api/health: cold, warm, after kill -9, and node dist/main.js warm
                                                   --runs 5
  profile  summarise a .cpuprofile file             <file> [--last 30: only the last seconds]
  fuzz     the API fuzz suite, larger               --runs 200 (per operation) --seed 20261124

  --engine pg: a fresh database on BENCH_PG_URL; embedded: no DATABASE_URL, the server's own
  embedded PostgreSQL in a fresh DATA_DIR (one ROLE=all process).`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    engine: { type: 'string' },
    role: { type: 'string' },
    connections: { type: 'string', default: '100' },
    duration: { type: 'string', default: '30' },
    warmup: { type: 'string', default: '5' },
    'cpu-prof': { type: 'boolean', default: false },
    'pg-setting': { type: 'string', multiple: true, default: [] },
    split: { type: 'boolean', default: false },
    workers: { type: 'string', default: '1' },
    apis: { type: 'string', default: '1' },
    'then-burst': { type: 'string', default: '0' },
    last: { type: 'string' },
    rate: { type: 'string' },
    latency: { type: 'string', default: '50' },
    'kill-every': { type: 'string', default: '5' },
    'drain-timeout': { type: 'string' },
    leads: { type: 'string', default: '200' },
    burst: { type: 'string', default: '100' },
    'meta-duplicates': { type: 'string', default: '1' },
    graph: { type: 'string', default: 'server' },
    runs: { type: 'string', default: '5' },
    seed: { type: 'string', default: '20261124' },
    plain: { type: 'boolean', default: false },
    'with-ceiling': { type: 'boolean', default: false },
  },
});

/** A whole number within bounds: every loop of the bench is bounded in count and time. */
function bounded(name: string, value: string | undefined, min: number, max: number): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < min || n > max) throw new Error(`--${name} must be between ${min} and ${max}`);
  return n;
}

function engineOf(value = 'pg'): Engine {
  if (value !== 'pg' && value !== 'embedded' && value !== 'owned')
    throw new Error('--engine must be pg, embedded or owned');
  return value;
}

/** The embedded PostgreSQL belongs to one ROLE=all process: the server refuses anything else without DATABASE_URL. */
const ONE_PROCESS =
  'the embedded PostgreSQL belongs to one ROLE=all process (the server refuses ROLE=api or worker without DATABASE_URL)';

function graphOf(value: string | undefined): 'server' | 'bench' {
  if (value !== 'server' && value !== 'bench') throw new Error('--graph must be server or bench');
  return value;
}

async function main(): Promise<boolean> {
  const [command, arg] = positionals;
  const duration = bounded('duration', values.duration, 1, 600);
  switch (command) {
    case 'ingest': {
      const engine = engineOf(values.engine);
      const role = values.role ?? (engine === 'embedded' ? 'all' : 'api');
      if (role !== 'api' && role !== 'all') throw new Error('--role must be api or all');
      if (engine === 'embedded' && role === 'api')
        throw new Error(`--engine embedded needs --role all: ${ONE_PROCESS}`);
      if (engine !== 'pg' && values['pg-setting']?.length) {
        throw new Error('--pg-setting is for --engine pg (a setting of the benchmark database)');
      }
      return runIngest({
        engine,
        role,
        connections: bounded('connections', values.connections, 1, 1000),
        duration,
        warmup: bounded('warmup', values.warmup, 0, 60),
        cpuProf: values['cpu-prof'] ?? false,
        pgSettings: values['pg-setting'] ?? [],
        withCeiling: values['with-ceiling'] ?? false,
        apis: bounded('apis', values.apis, 1, 4),
      });
    }
    case 'ceiling': {
      const runId = newRunId();
      const engine = engineOf(values.engine);
      if (engine === 'embedded') throw new Error('ceiling runs on --engine pg or owned');
      const result = await runCeiling({
        databaseUrl: (await benchDatabase(engine, runId, scratchDir(runId)))!,
        clients: bounded('connections', values.connections, 1, 1000),
        duration,
        dir: scratchDir(runId),
      });
      console.info(JSON.stringify({ bench: 'ceiling', ...result }, null, 2));
      return true;
    }
    case 'e2e':
    case 'crash': {
      const engine = engineOf(values.engine);
      if (engine === 'embedded' && (command === 'crash' || values.split)) {
        throw new Error(`${command === 'crash' ? 'crash' : '--split'} needs --engine pg: ${ONE_PROCESS}`);
      }
      return runE2e({
        engine,
        split: values.split ?? false,
        workers: bounded('workers', values.workers, 1, 4),
        apis: bounded('apis', values.apis, 1, 4),
        thenBurst: bounded('then-burst', values['then-burst'], 0, 100_000),
        cpuProf: values['cpu-prof'] ?? false,
        rate: bounded('rate', values.rate ?? '200', 1, 5000),
        duration,
        latencyMs: bounded('latency', values.latency, 0, 10_000),
        crash: command === 'crash',
        killEvery: bounded('kill-every', values['kill-every'], 1, 60),
        drainTimeout: bounded('drain-timeout', values['drain-timeout'] ?? '150', 10, 900),
        plain: values.plain ?? false,
      });
    }
    case 'peer':
      return runPeer({
        engine: engineOf(values.engine ?? 'owned'),
        rate: bounded('rate', values.rate ?? '1000', 1, 5000),
        duration,
        latencyMs: bounded('latency', values.latency, 0, 10_000),
        drainTimeout: bounded('drain-timeout', values['drain-timeout'] ?? '150', 10, 900),
        thenBurst: bounded('then-burst', values['then-burst'] ?? '0', 0, 100_000),
      });
    case 'chaos':
      return runChaos({
        rate: bounded('rate', values.rate ?? '10', 1, 200),
        duration: bounded('duration', values.duration === '30' ? '50' : values.duration, 20, 600),
        drainTimeout: bounded('drain-timeout', values['drain-timeout'] ?? '150', 10, 900),
        seed: bounded('seed', values.seed, 0, 2 ** 31 - 1),
      });
    case 'fb': {
      const engine = engineOf(values.engine);
      if (engine === 'embedded' && values.split) throw new Error(`--split needs --engine pg: ${ONE_PROCESS}`);
      return runFb({
        engine,
        leads: bounded('leads', values.leads, 1, 100_000),
        rate: bounded('rate', values.rate ?? '20', 1, 5000),
        burst: bounded('burst', values.burst, 0, 10_000),
        latencyMs: bounded('latency', values.latency, 0, 10_000),
        metaDuplicates: bounded('meta-duplicates', values['meta-duplicates'], 1, 5),
        drainTimeout: bounded('drain-timeout', values['drain-timeout'] ?? '60', 10, 900),
        cpuProf: values['cpu-prof'] ?? false,
        graph: graphOf(values.graph),
        split: values.split ?? false,
      });
    }
    case 'startup':
      return runStartup({ runs: bounded('runs', values.runs, 1, 20) });
    case 'fuzz':
      return runFuzz({
        runs: bounded('runs', values.runs === '5' ? '200' : values.runs, 1, 10_000),
        seed: bounded('seed', values.seed, 0, 2 ** 31 - 1),
      });
    case 'profile':
      if (!arg) throw new Error('profile needs a .cpuprofile file');
      console.info(summarizeProfile(arg, 25, values.last ? bounded('last', values.last, 1, 3600) : undefined));
      return true;
    default:
      console.error(USAGE);
      return false;
  }
}

main()
  .then(
    async (ok) => {
      await cleanup();
      process.exit(ok ? 0 : 1);
    },
    async (error) => {
      console.error(error);
      await cleanup();
      process.exit(1);
    },
  )
  .catch(() => process.exit(1));
