#!/usr/bin/env node
// `npm test`: every suite — unit and API (Vitest: shared, server, web) and end-to-end
// (Playwright in Chromium) — then one closing line "tests: N passed, N failed".
// The API and end-to-end suites use PostgreSQL when TEST_DATABASE_URL is set, PGlite otherwise.
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const out = mkdtempSync(join(tmpdir(), 'leadrelay-test-'));
const only = process.argv[2]; // optional: "unit" or "e2e"
let passed = 0;
let failed = 0;
let broken = false;

function run(label, cmd, args, env = {}) {
  console.info(`\n=== ${label} ===`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status ?? 1;
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

if (!only || only === 'e2e') {
  const file = join(out, 'playwright.json');
  let code = run('web build', 'npm', ['run', 'build', '-w', '@leadrelay/web']);
  if (code === 0) {
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
// .ci/run adds up its two runs (PGlite, PostgreSQL) from this file.
if (process.env.TEST_SUMMARY_FILE) appendFileSync(process.env.TEST_SUMMARY_FILE, `${passed} ${failed}\n`);
console.info(`\ntests: ${passed} passed, ${failed} failed`);
process.exit(broken || failed > 0 ? 1 : 0);
