// Periodic tasks: one node at a time under an advisory lock, failures logged and retried next
// interval, a clean stop, only in processes that run the worker, and the housekeeping they do.
import { randomUUID } from 'node:crypto';
import { eq, inArray, like } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app';
import { type Database, openDatabase } from '../db/client';
import { dedupeKeys, emailTokens, loginFailures, sessions, users } from '../db/schema';
import { DEFAULT_THROTTLE } from '../modules/auth/throttle.service';
import { createSource } from '../test/routing-fixtures';
import { createTestApp, createTestDatabase, signUp, type TestApp } from '../test/test-app';
import { advisoryKey, PeriodicScheduler, type PeriodicTask } from './periodic';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** A logger that keeps what was logged as an error. */
function captureLog() {
  const errors: { obj: Record<string, unknown>; msg?: string }[] = [];
  const noop = () => {};
  const log = {
    level: 'info',
    error: (obj: Record<string, unknown>, msg?: string) => errors.push({ obj, msg }),
    warn: noop,
    info: noop,
    debug: noop,
    trace: noop,
    fatal: noop,
    silent: noop,
    child: () => log,
  };
  return { log: log as unknown as FastifyBaseLogger, errors };
}

/** Two handles on one database, as two nodes have: two connection pools. */
async function twoNodes(): Promise<{ a: Database; b: Database; close(): Promise<void> }> {
  const database = await createTestDatabase('lr_test', { migrated: true });
  const a = await openDatabase({ databaseUrl: database.url });
  const b = await openDatabase({ databaseUrl: database.url });
  return {
    a,
    b,
    async close() {
      await a.close();
      await b.close();
      await database.drop();
    },
  };
}

let nodes: Awaited<ReturnType<typeof twoNodes>>;
beforeAll(async () => {
  nodes = await twoNodes();
});
afterAll(async () => {
  await nodes.close();
});

/** A task that counts how many of it run at once and waits for `hold` while running. */
function exclusiveTask(name: string, everyMs: number, hold: () => Promise<void>) {
  const stats = { runs: 0, running: 0, maxRunning: 0, entered: deferred() };
  const task: PeriodicTask = {
    name,
    everyMs,
    async run() {
      stats.runs++;
      stats.running++;
      stats.maxRunning = Math.max(stats.maxRunning, stats.running);
      stats.entered.resolve();
      try {
        await hold();
      } finally {
        stats.running--;
      }
    },
  };
  return { task, stats };
}

describe('periodic scheduler', () => {
  it('derives a stable signed 64-bit lock key per task', () => {
    expect(advisoryKey('prune-sessions')).toBe(advisoryKey('prune-sessions'));
    expect(advisoryKey('prune-sessions')).not.toBe(advisoryKey('prune-email-tokens'));
    const key = BigInt(advisoryKey('prune-sessions'));
    expect(key >= -(2n ** 63n) && key < 2n ** 63n).toBe(true);
  });

  it('runs a task on one node at a time: the other skips it', async () => {
    const gate = deferred();
    const { task, stats } = exclusiveTask('exclusive', 60_000, () => gate.promise);
    const { log } = captureLog();
    const a = new PeriodicScheduler({ db: nodes.a.db, log, tasks: [task] });
    const b = new PeriodicScheduler({ db: nodes.b.db, log, tasks: [task] });
    const first = a.runNow('exclusive');
    await stats.entered.promise;
    expect(await b.runNow('exclusive')).toBe('skipped');
    gate.resolve();
    expect(await first).toBe('ran');
    // The lock went with the transaction: the other node gets it now.
    expect(await b.runNow('exclusive')).toBe('ran');
    expect(stats.runs).toBe(2);
    expect(stats.maxRunning).toBe(1);
  });

  it('two nodes on a short interval never run the same task at once', async () => {
    const { task, stats } = exclusiveTask('busy', 2, async () => {
      await sleep(8);
    });
    const { log, errors } = captureLog();
    const a = new PeriodicScheduler({ db: nodes.a.db, log, tasks: [task], firstRunMs: 0 });
    const b = new PeriodicScheduler({ db: nodes.b.db, log, tasks: [task], firstRunMs: 0 });
    a.start();
    b.start();
    await vi.waitFor(() => expect(stats.runs).toBeGreaterThanOrEqual(8), { timeout: 5_000, interval: 10 });
    await Promise.all([a.stop(), b.stop()]);
    expect(stats.maxRunning).toBe(1);
    expect(errors).toEqual([]);
  });

  it('a task that throws is logged, its writes roll back, and it runs again next interval', async () => {
    let calls = 0;
    const task: PeriodicTask = {
      name: 'flaky',
      everyMs: 5,
      async run(tx) {
        calls++;
        await tx.insert(loginFailures).values({ key: `flaky-${calls}` });
        if (calls === 1) throw new Error('the first run breaks');
      },
    };
    const { log, errors } = captureLog();
    const s = new PeriodicScheduler({ db: nodes.a.db, log, tasks: [task], firstRunMs: 0 });
    s.start();
    await vi.waitFor(() => expect(calls).toBeGreaterThanOrEqual(2), { timeout: 5_000, interval: 5 });
    await s.stop();
    expect(errors[0]).toMatchObject({ obj: { task: 'flaky' }, msg: 'periodic task failed' });
    expect((errors[0]!.obj.err as Error).message).toBe('the first run breaks');
    const keys = await nodes.a.db
      .select({ key: loginFailures.key })
      .from(loginFailures)
      .where(like(loginFailures.key, 'flaky-%'));
    expect(keys.map((k) => k.key)).not.toContain('flaky-1');
    expect(keys.map((k) => k.key)).toContain('flaky-2');
  });

  it('stop() waits for the run under way, and nothing runs after it', async () => {
    const gate = deferred();
    let finished = false;
    const { task, stats } = exclusiveTask('slow', 5, async () => {
      await gate.promise;
      finished = true;
    });
    const { log } = captureLog();
    const s = new PeriodicScheduler({ db: nodes.a.db, log, tasks: [task], firstRunMs: 0 });
    s.start();
    await stats.entered.promise;
    let stopped = false;
    const stopping = s.stop().then(() => {
      stopped = true;
    });
    await sleep(30);
    expect(stopped).toBe(false);
    gate.resolve();
    await stopping;
    expect(finished).toBe(true);
    const runs = stats.runs;
    await sleep(30);
    expect(stats.runs).toBe(runs);
    expect(s.isRunning).toBe(false);
  });
});

describe('periodic tasks in the app', () => {
  it('run where the worker runs (ROLE all and worker), never in ROLE=api', async () => {
    const counted = (counts: Record<string, number>, role: string): PeriodicTask => ({
      name: 'count',
      everyMs: 5,
      run: async () => {
        counts[role] = (counts[role] ?? 0) + 1;
      },
    });
    const counts: Record<string, number> = {};
    const apps: FastifyInstance[] = [];
    try {
      for (const role of ['api', 'worker', 'all'] as const) {
        // The file's database: buildApp leaves it open on close.
        const app = await buildApp({
          database: nodes.a,
          role,
          worker: true,
          periodic: { tasks: [counted(counts, role)], firstRunMs: 0 },
        });
        apps.push(app);
        await app.ready();
      }
      await vi.waitFor(
        () => {
          expect(counts.worker).toBeGreaterThanOrEqual(3);
          expect(counts.all).toBeGreaterThanOrEqual(3);
        },
        { timeout: 5_000, interval: 10 },
      );
      expect(counts.api).toBeUndefined();
      expect(apps[0]!.periodic.isRunning).toBe(false);
    } finally {
      for (const app of apps) await app.close();
    }
  });

  describe('housekeeping', () => {
    let t: TestApp;
    let userId: string;
    beforeAll(async () => {
      t = await createTestApp();
      const user = await signUp(t);
      const [row] = await t.app.db.select({ id: users.id }).from(users).where(eq(users.login, user.login));
      userId = row!.id;
    });
    afterAll(() => t.close());

    const HOUR = 3_600_000;
    const ago = (ms: number) => new Date(Date.now() - ms);
    const ahead = (ms: number) => new Date(Date.now() + ms);

    it('drops expired sessions; a revoked one stays listed until it would have expired', async () => {
      const rows = await t.app.db
        .insert(sessions)
        .values([
          { userId, tokenHash: 'expired', expiresAt: ago(HOUR) },
          { userId, tokenHash: 'revoked', expiresAt: ahead(HOUR), revokedAt: ago(HOUR) },
          { userId, tokenHash: 'live', expiresAt: ahead(HOUR) },
        ])
        .returning({ id: sessions.id, tokenHash: sessions.tokenHash });
      expect(await t.app.periodic.runNow('prune-sessions')).toBe('ran');
      const left = await t.app.db
        .select({ tokenHash: sessions.tokenHash })
        .from(sessions)
        .where(
          inArray(
            sessions.id,
            rows.map((r) => r.id),
          ),
        );
      expect(left.map((r) => r.tokenHash).sort()).toEqual(['live', 'revoked']);
    });

    it('drops used and expired e-mail tokens, keeps the ones still usable', async () => {
      await t.app.db.insert(emailTokens).values([
        { userId, kind: 'reset', tokenHash: 'used', expiresAt: ahead(HOUR), usedAt: ago(1_000) },
        { userId, kind: 'reset', tokenHash: 'expired', expiresAt: ago(1_000) },
        { userId, kind: 'reset', tokenHash: 'usable', expiresAt: ahead(HOUR) },
      ]);
      expect(await t.app.periodic.runNow('prune-email-tokens')).toBe('ran');
      const left = await t.app.db
        .select({ tokenHash: emailTokens.tokenHash })
        .from(emailTokens)
        .where(inArray(emailTokens.tokenHash, ['used', 'expired', 'usable']));
      expect(left.map((r) => r.tokenHash)).toEqual(['usable']);
    });

    it('drops failed sign-ins that left the throttle window, keeps the ones that still count', async () => {
      const windowMs = DEFAULT_THROTTLE.windowSeconds * 1000;
      await t.app.db.insert(loginFailures).values([
        { key: 'login:old@example.com', createdAt: ago(windowMs + 60_000) },
        { key: 'login:recent@example.com', createdAt: ago(windowMs - 60_000) },
      ]);
      expect(await t.app.periodic.runNow('prune-login-failures')).toBe('ran');
      const left = await t.app.db
        .select({ key: loginFailures.key })
        .from(loginFailures)
        .where(inArray(loginFailures.key, ['login:old@example.com', 'login:recent@example.com']));
      expect(left.map((r) => r.key)).toEqual(['login:recent@example.com']);
    });

    it('drops expired dedupe keys, keeps the ones still in their window', async () => {
      const source = await createSource(t.app.db, userId);
      await t.app.db.insert(dedupeKeys).values([
        { integrationId: source.id, key: 'body:expired', hookId: randomUUID(), expiresAt: ago(1_000) },
        { integrationId: source.id, key: 'body:live', hookId: randomUUID(), expiresAt: ahead(HOUR) },
      ]);
      expect(await t.app.periodic.runNow('prune-dedupe-keys')).toBe('ran');
      const left = await t.app.db
        .select({ key: dedupeKeys.key })
        .from(dedupeKeys)
        .where(eq(dedupeKeys.integrationId, source.id));
      expect(left.map((r) => r.key)).toEqual(['body:live']);
    });
  });
});
