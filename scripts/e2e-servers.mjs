#!/usr/bin/env node
// Starts the end-to-end suite's servers, one per Playwright worker, side by side: the server is
// built once, then every worker's scripts/e2e-server.mjs starts at the same time, each on the port,
// data folder and parser SMTP port apps/web/playwright.config.ts's `serverOf` gives it (handed over
// in E2E_SERVERS, a JSON list of { port, dataDir, smtpPort }). Prints "e2e servers ready" once every
// one answers /api/health, which is what Playwright's webServer waits for; on SIGTERM or SIGINT it
// stops them all (each stops its embedded PostgreSQL) and exits when they have. Before, Playwright
// started them one after another: about 13 s more per worker on a 2-core machine.
import { execFileSync, spawn } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
let wanted;
try {
  wanted = JSON.parse(process.env.E2E_SERVERS ?? '');
} catch {
  wanted = null;
}
if (!Array.isArray(wanted) || wanted.length === 0) {
  console.error(
    'e2e-servers: E2E_SERVERS must be a JSON list of { port, dataDir, smtpPort } (playwright.config.ts sets it)',
  );
  process.exit(2);
}

execFileSync(process.execPath, ['apps/server/build.mjs'], { cwd: root, stdio: 'inherit' });
// The pages the specs open: rebuilt when a source changed since the last build (a no-op after
// npm test's own build), so a spec never runs against a stale web app.
execFileSync(process.execPath, ['scripts/build-web.mjs'], { cwd: root, stdio: 'inherit' });

const servers = wanted.map(({ port, dataDir, smtpPort }) => {
  const env = {
    ...process.env,
    E2E_PORT: String(port),
    E2E_DATA_DIR: dataDir,
    E2E_SMTP_PORT: String(smtpPort),
    E2E_SKIP_BUILD: '1',
  };
  const child = spawn(process.execPath, ['scripts/e2e-server.mjs'], { cwd: root, env, stdio: 'inherit' });
  return { port, child, exited: new Promise((done) => child.once('exit', (code) => done(code ?? 1))) };
});

let stopping = false;
async function stop(signal, code) {
  if (stopping) return;
  stopping = true;
  for (const s of servers) if (s.child.exitCode === null) s.child.kill(signal);
  await Promise.all(servers.map((s) => s.exited));
  process.exit(code);
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void stop(signal, 0));
// One server that ends on its own (a port taken, a failed migration) ends the run: its tests could
// not pass.
for (const s of servers) {
  void s.exited.then((code) => {
    if (!stopping) {
      console.error(`e2e server on port ${s.port} exited (${code}) before the run ended`);
      void stop('SIGTERM', 1);
    }
  });
}

async function healthy(port) {
  for (;;) {
    if (stopping) return;
    try {
      const answer = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (answer.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((done) => setTimeout(done, 200));
  }
}
await Promise.all(servers.map((s) => healthy(s.port)));
if (!stopping) console.info(`e2e servers ready: ${servers.map((s) => s.port).join(', ')}`);
