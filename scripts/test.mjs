#!/usr/bin/env node
// `npm test`: every suite — unit and API (Vitest: shared, connectors, server, web), the chaos suite
// (bench/src/chaos.ts: 2 API and 2 worker processes on a PostgreSQL cluster of its own, killed and
// restarted under load; one test, passed when its ledger holds) and end-to-end (Playwright in
// Chromium) — then one closing line "tests: N passed, N failed".
// The API and end-to-end suites run on PostgreSQL: TEST_DATABASE_URL when set, otherwise a cluster
// of the embedded PostgreSQL made for this run in a temporary folder and removed at the end.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const out = mkdtempSync(join(tmpdir(), 'leadrelay-test-'));
const only = process.argv[2]; // optional: "unit", "chaos" or "e2e"
let passed = 0;
let failed = 0;
let broken = false;

// The chaos suite alone needs no test database: it makes a cluster of its own.
const cluster = only === 'chaos' ? undefined : await testCluster();

function run(label, cmd, args, env = {}) {
  console.info(`\n=== ${label} ===`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status ?? 1;
}

/** The run's PostgreSQL: the built server's embedded-postgres module starts one unless given. */
async function testCluster() {
  if (process.env.TEST_DATABASE_URL) return undefined;
  if (run('server build', process.execPath, ['apps/server/build.mjs']) !== 0) process.exit(1);
  const { startTemporaryCluster } = await import('../apps/server/dist/embedded-postgres.js');
  const started = await startTemporaryCluster('leadrelay-test-pg');
  process.env.TEST_DATABASE_URL = started.url;
  console.info('test database: a temporary cluster of the embedded PostgreSQL');
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await started.stop();
  };
  // `on`: a Ctrl+C under npm arrives twice; the second must not cut the cleanup short.
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stop().finally(() => process.exit(130)));
  return { stop };
}

function readJson(file) {
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

if (!only || only === 'unit') {
  const file = join(out, 'vitest.json');
  const code = run('unit and API tests (Vitest)', 'npx', [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${file}`,
  ]);
  const report = readJson(file);
  if (report) {
    passed += report.numPassedTests;
    failed += report.numFailedTests;
  }
  if (code !== 0 || !report || report.numTotalTests === 0) broken = true;
}

if (!only || only === 'chaos') {
  // Its own cluster (it restarts it), never the run's test database; bounded: it gives up on its own.
  const code = run('chaos suite (2 api + 2 workers, kill -9, PostgreSQL restart, pg_terminate_backend)', 'npm', [
    'run',
    'bench',
    '-w',
    '@leadrelay/bench',
    '--',
    'chaos',
  ]);
  if (code === 0) passed += 1;
  else failed += 1;
}

if (!only || only === 'e2e') {
  const file = join(out, 'playwright.json');
  let code = run('web build', 'npm', ['run', 'build', '-w', '@leadrelay/web']);
  if (code === 0) {
    // The first-load budget (issue 17 part 8), read from this build's manifest: one test.
    const budget = run('first-load budget (gzipped JS per page)', process.execPath, ['scripts/bundle-budget.mjs']);
    if (budget === 0) passed += 1;
    else failed += 1;
    code = run(
      'end-to-end tests (Playwright, Chromium)',
      'npx',
      ['playwright', 'test', '--config', 'apps/web/playwright.config.ts', '--reporter=list,json'],
      {
        PLAYWRIGHT_JSON_OUTPUT_NAME: file,
      },
    );
  }
  const report = readJson(file);
  if (report?.stats) {
    passed += report.stats.expected + report.stats.flaky;
    failed += report.stats.unexpected;
  }
  if (code !== 0 || !report || report.stats.expected + report.stats.unexpected === 0) broken = true;
}

rmSync(out, { recursive: true, force: true });
await cluster?.stop();
console.info(`\ntests: ${passed} passed, ${failed} failed`);
process.exit(broken || failed > 0 ? 1 : 0);
