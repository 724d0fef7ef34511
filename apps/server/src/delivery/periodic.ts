// The periodic-task scheduler of worker processes; the tasks are the modules' own, which their
// descriptors hand to app.ts. Each run happens in a transaction that first takes
// pg_try_advisory_xact_lock(<the task's key>): while one node runs a task, the others skip it, and
// the lock goes with the transaction, so a node that dies mid-run holds nothing.
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type Db, rowsOf } from '../db/client';
import { settleWithin } from '../lib/settle-within';

/** The transaction a run gets (the one holding the task's lock). */
export type LockedTx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface PeriodicTask {
  /** Stable: the advisory lock key is derived from it. */
  name: string;
  everyMs: number;
  /** Runs inside the locked transaction; use `tx` for every query (never the global db: house style). */
  run(tx: LockedTx, now: Date): Promise<unknown>;
  /** After the run committed, with what it returned: events others may act on only once it is visible. */
  afterCommit?(result: unknown): void;
}

export interface PeriodicSchedulerOptions {
  db: Db;
  log: FastifyBaseLogger;
  tasks: PeriodicTask[];
  now?: () => Date;
  /** Delay before each task's first run, so start-up is not slowed (default 5 s). */
  firstRunMs?: number;
}

export type RunResult = 'ran' | 'skipped' | 'failed';

/** A stable signed 64-bit advisory lock key per task name (as text: bigint parameters). */
export function advisoryKey(name: string): string {
  const digest = createHash('sha256').update(`leadrelay:periodic:${name}`).digest();
  return digest.readBigInt64BE(0).toString();
}

export class PeriodicScheduler {
  private readonly db: Db;
  private readonly log: FastifyBaseLogger;
  private readonly tasks: PeriodicTask[];
  private readonly now: () => Date;
  private readonly firstRunMs: number;
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly inflight = new Set<Promise<RunResult>>();
  private started = false;

  constructor(options: PeriodicSchedulerOptions) {
    this.db = options.db;
    this.log = options.log;
    this.tasks = options.tasks;
    this.now = options.now ?? (() => new Date());
    this.firstRunMs = options.firstRunMs ?? 5_000;
    const names = new Set(this.tasks.map((t) => t.name));
    if (names.size !== this.tasks.length) throw new Error('Periodic task names must be unique');
  }

  get isRunning(): boolean {
    return this.started;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    for (const task of this.tasks) this.schedule(task, this.firstRunMs);
  }

  /** No new runs; waits for the ones under way (up to graceMs; an abandoned run rolls back). */
  async stop(graceMs = 5_000): Promise<void> {
    this.started = false;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    await settleWithin(this.inflight, graceMs);
  }

  /** One run of the named task now, under its lock: 'skipped' when another node holds it. */
  runNow(name: string): Promise<RunResult> {
    const task = this.tasks.find((t) => t.name === name);
    if (!task) throw new Error(`No periodic task "${name}"`);
    return this.track(this.runLocked(task));
  }

  private schedule(task: PeriodicTask, delayMs: number): void {
    // The next run is planned when this one ends, so one node never overlaps itself.
    const timer = setTimeout(() => {
      this.timers.delete(task.name);
      void this.track(this.runLocked(task)).finally(() => {
        if (this.started) this.schedule(task, task.everyMs);
      });
    }, delayMs);
    timer.unref();
    this.timers.set(task.name, timer);
  }

  private track(run: Promise<RunResult>): Promise<RunResult> {
    this.inflight.add(run);
    void run.finally(() => this.inflight.delete(run));
    return run;
  }

  private async runLocked(task: PeriodicTask): Promise<RunResult> {
    const started = performance.now();
    try {
      const ran = await this.db.transaction(async (tx) => {
        const locked = await tx.execute(
          sql`select pg_try_advisory_xact_lock(${advisoryKey(task.name)}::bigint) as locked`,
        );
        if (!rowsOf<{ locked: boolean }>(locked)[0]?.locked) return false;
        return { result: await task.run(tx, this.now()) };
      });
      if (!ran) return 'skipped';
      task.afterCommit?.(ran.result);
      this.log.debug({ task: task.name, ms: Math.round(performance.now() - started) }, 'periodic task ran');
      return 'ran';
    } catch (error) {
      // Logged, rolled back; the timer runs it again next interval.
      this.log.error({ err: error, task: task.name }, 'periodic task failed');
      return 'failed';
    }
  }
}
