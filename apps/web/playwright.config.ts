import { defineConfig } from '@playwright/test';

// End-to-end suite: Debian's Chromium (never a downloaded browser) against the real server,
// started by scripts/e2e-server.mjs on a fresh data folder (and a fresh PostgreSQL database
// when TEST_DATABASE_URL is set).
const port = process.env.E2E_PORT ?? '3100';
export const baseURL = `http://127.0.0.1:${port}`;
export const dataDir = process.env.E2E_DATA_DIR ?? `/tmp/leadrelay-e2e-${port}`;

export default defineConfig({
  testDir: './e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL,
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
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
  webServer: {
    command: 'node ../../scripts/e2e-server.mjs',
    url: `${baseURL}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    // The server stops its embedded PostgreSQL on SIGTERM; Playwright's default (SIGKILL) would
    // leave it running, orphaned, into the next run.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
