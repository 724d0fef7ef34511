#!/usr/bin/env node
// Starts LeadRelay for the end-to-end suite as `npm start` runs it (the built server): a fresh data
// folder (its mail/ is where the tests read confirmation and reset links) and, when
// TEST_DATABASE_URL is set (npm test sets it), a fresh database on that server instead of the
// embedded one. apps/web/playwright.config.ts starts one per worker, each on its own E2E_PORT,
// E2E_DATA_DIR and E2E_SMTP_PORT; the first builds the server, the others (E2E_SKIP_BUILD=1, started
// once the first answers) run that build.
import { execFileSync, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import pg from 'pg';

const root = new URL('..', import.meta.url).pathname;
const port = process.env.E2E_PORT ?? '3100';
const dataDir = process.env.E2E_DATA_DIR ?? `/tmp/leadrelay-e2e-${port}`;
rmSync(dataDir, { recursive: true, force: true });

const env = {
  ...process.env,
  PORT: port,
  HOST: '127.0.0.1',
  PUBLIC_URL: `http://127.0.0.1:${port}`,
  DATA_DIR: dataDir,
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  // The end-to-end flow delivers to an http emulator on 127.0.0.1.
  ALLOW_PRIVATE_DESTINATIONS: 'true',
  // The suite signs in far more often from 127.0.0.1 than a person does (rate limits: docs/operations.md).
  RATE_LIMIT_AUTH_PER_MINUTE: '0',
  RATE_LIMIT_SIGNIN_PER_MINUTE: '0',
  // amoCRM, Pipedrive and SendPulse emulated in-process (GET /api/emulators tells where).
  EMULATORS: 'true',
  // A checkout left unpaid is abandoned after 20 s instead of an hour, so the billing spec sees one
  // expire (apps/web/e2e/payments.spec.ts); a payment that still comes later is honoured.
  PAYMENT_CHECKOUT_LIFETIME_SECONDS: process.env.E2E_CHECKOUT_LIFETIME_SECONDS ?? '20',
  // The platform owner the super-admin specs sign in as (apps/web/e2e/support/owner.ts): made at
  // the first start, as an operator would with OWNER_LOGIN/OWNER_PASSWORD.
  OWNER_LOGIN: process.env.E2E_OWNER_LOGIN ?? 'owner-e2e@example.com',
  OWNER_PASSWORD: process.env.E2E_OWNER_PASSWORD ?? 'OwnerSecret1',
  // E-mail parsers: the SMTP listener on a port of this run's own (apps/web/e2e/support/parsers.ts).
  PARSER_SMTP_PORT: process.env.E2E_SMTP_PORT ?? String(Number(port) + 1000),
  MAIL_DOMAIN: 'parsers.e2e.test',
};
delete env.DATABASE_URL;

if (process.env.TEST_DATABASE_URL) {
  const name = `lr_e2e_${port}`;
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(process.env.TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  env.DATABASE_URL = url.toString();
}

if (!process.env.E2E_SKIP_BUILD) {
  execFileSync(process.execPath, ['apps/server/build.mjs'], { cwd: root, stdio: 'inherit' });
}
// The flags of `npm start` (apps/server/package.json).
const child = spawn(
  process.execPath,
  ['--enable-source-maps', '--max-semi-space-size=16', 'apps/server/dist/main.js'],
  {
    cwd: root,
    env,
    stdio: 'inherit',
  },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
