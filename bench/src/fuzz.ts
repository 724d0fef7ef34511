// The API fuzz suite (apps/server/src/test/fuzz) with more runs per operation than `npm test`
// gives it: the same generators and checks, through vitest on the test run's own PostgreSQL.
import { spawnSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export function runFuzz(options: { runs: number; seed: number }): boolean {
  console.info(`fuzz: ${options.runs} runs per operation, seed ${options.seed}`);
  const started = Date.now();
  const result = spawnSync(
    process.execPath,
    [resolve(root, 'node_modules/vitest/vitest.mjs'), 'run', '--project', 'server', 'apps/server/src/test/fuzz'],
    {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, FUZZ_RUNS: String(options.runs), FUZZ_SEED: String(options.seed) },
    },
  );
  console.info(
    `fuzz: ${result.status === 0 ? 'no 5xx, no hang' : 'FAILED'} in ${Math.round((Date.now() - started) / 1000)} s`,
  );
  return result.status === 0;
}
