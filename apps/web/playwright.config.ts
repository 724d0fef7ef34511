import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

// End-to-end suite: Debian's Chromium (never a downloaded browser) against the real server,
// started by scripts/e2e-server.mjs on a fresh data folder (and a fresh PostgreSQL database
// when TEST_DATABASE_URL is set).
//
// Each worker has a server of its own (port E2E_PORT + its slot, its own data folder, database and
// parser SMTP port), so no test meets another's running state: the platform owner's translations,
// plans, news and catalogue, the emulators' shops, bots and CRMs, the mail folder. A worker's slot
// (TEST_PARALLEL_INDEX, set before a worker loads this file) picks its server; a worker that
// replaces a failed one takes the same slot.
const workers = Number(process.env.E2E_WORKERS ?? 2);
// Debian's headless shell (package chromium-headless-shell: Chromium without the desktop browser
// around it, what Playwright itself runs headless) when installed: the same engine for about a tenth
// less CPU over the suite; else the full /usr/bin/chromium.
const chromium = existsSync('/usr/bin/chromium-headless-shell')
  ? '/usr/bin/chromium-headless-shell'
  : '/usr/bin/chromium';
const firstPort = Number(process.env.E2E_PORT ?? '3100');
const slot = Number(process.env.TEST_PARALLEL_INDEX ?? 0);

/** The server of slot `i`: its address, data folder and parser SMTP port. */
export function serverOf(i: number) {
  const port = firstPort + i;
  return {
    port,
    baseURL: `http://127.0.0.1:${port}`,
    dataDir: process.env.E2E_DATA_DIR ? `${process.env.E2E_DATA_DIR}-${i}` : `/tmp/leadrelay-e2e-${port}`,
    smtpPort: port + 1000,
  };
}

/** This worker's server. */
export const { baseURL, dataDir, smtpPort } = serverOf(slot);

export default defineConfig({
  testDir: './e2e',
  fullyParallel: true,
  workers,
  retries: 0,
  // Limits that catch a hang, never a measure of speed: two workers share two cores (and the
  // machine is often shared), so a step takes longer than on one worker alone.
  timeout: 120_000,
  expect: { timeout: 15_000 },
  use: {
    baseURL,
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? chromium,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        // V8 without its optimizing compilers (TurboFan, Maglev): a test's page lives for seconds,
        // so code optimized for it is work thrown away. The same JavaScript runs, interpreted and
        // baseline-compiled; the renderers took about a fifth less CPU per page load of the app
        // (docs/testing.md). What people's browsers do is not changed.
        '--js-flags=--no-opt --no-maglev',
      ],
    },
    // The suite asks for less motion, as a person can in their system settings: the app then turns
    // antd's animations off (app/theme.tsx), so no step waits on an animation's end (a collapsed
    // loading icon left in a button's name when a transition end never came, under load).
    reducedMotion: 'reduce',
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  outputDir: '../../test-results',
  // All workers' servers at once (scripts/e2e-servers.mjs builds the server, starts one per worker
  // side by side and says when every one answers): before, Playwright started them one by one.
  webServer: {
    command: 'node ../../scripts/e2e-servers.mjs',
    // Each worker's server as `serverOf` gives it: the launcher derives nothing itself.
    env: { E2E_SERVERS: JSON.stringify(Array.from({ length: workers }, (_, i) => serverOf(i))) },
    wait: { stdout: /e2e servers ready/ },
    url: `${serverOf(0).baseURL}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    // Each server stops its embedded PostgreSQL on SIGTERM; Playwright's default (SIGKILL) would
    // leave them running, orphaned, into the next run.
    gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 15_000 },
    stdout: 'pipe' as const,
    stderr: 'pipe' as const,
  },
});
