// The loop every queue of the engine runs on (deliveries, Meta's leadgen events): claims due jobs
// under a lease into free slots, processes them concurrently, polls, and claims at once when woken
// (an event said jobs are due). The queue itself (what is due, the lease, the result) is the
// caller's: `claim` and `process`.
import type { FastifyBaseLogger } from 'fastify';
import { settleWithin } from '../lib/settle-within';

export interface JobLoopOptions<Job> {
  /** For the log: what a failed claim or job was. */
  name: string;
  log: FastifyBaseLogger;
  /** Takes up to `limit` due jobs (leased to this loop). */
  claim(limit: number): Promise<Job[]>;
  /** Handles one job; a throw is logged and the job stays with its lease (due again when it ends). */
  process(job: Job): Promise<void>;
  /** What identifies a job in the log line of its failure. */
  describe(job: Job): Record<string, unknown>;
  /** Jobs under way at once. */
  concurrency: number;
  pollMs: number;
}

export class JobLoop<Job> {
  private readonly inflight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private claiming = false;
  private again = false;
  private stopping = false;
  /** The last claim got every job it asked for: more are probably due. */
  private backlog = false;

  constructor(private readonly options: JobLoopOptions<Job>) {}

  get isRunning(): boolean {
    return this.timer !== undefined;
  }

  /** Background loop: polls, and claims at once on `wake`. */
  start(): void {
    if (this.timer) return;
    this.stopping = false;
    this.timer = setInterval(this.wake, this.options.pollMs);
    this.wake();
  }

  /** No new claims; waits for the jobs under way (up to graceMs). */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await settleWithin(this.inflight, graceMs);
  }

  /** Claims now (and once more after a claim under way); a no-op unless the loop runs. */
  readonly wake = (): void => {
    if (this.stopping || !this.timer) return;
    if (this.claiming) {
      this.again = true;
      return;
    }
    this.claiming = true;
    void this.fill()
      .catch((error) => this.options.log.error({ err: error }, `claiming ${this.options.name} failed`))
      .finally(() => {
        this.claiming = false;
        if (this.again && !this.stopping) {
          this.again = false;
          this.wake();
        }
      });
  };

  /** Claims up to `concurrency` due jobs and handles them; the number claimed (tests, benchmarks). */
  async runOnce(): Promise<number> {
    const claimed = await this.options.claim(this.options.concurrency);
    await Promise.all(claimed.map((job) => this.handle(job)));
    return claimed.length;
  }

  /** runOnce until nothing is due (tests). */
  async drain(maxRounds = 1_000): Promise<number> {
    let total = 0;
    for (let round = 0; round < maxRounds; round++) {
      const handled = await this.runOnce();
      if (!handled) break;
      total += handled;
    }
    return total;
  }

  private handle(job: Job): Promise<void> {
    return this.options
      .process(job)
      .catch((error) =>
        this.options.log.error({ err: error, ...this.options.describe(job) }, `${this.options.name} failed`),
      );
  }

  /**
   * Fills the free slots. While a backlog waits, it claims once a quarter of the slots is free
   * rather than once per finished job: one claim serves a batch.
   */
  private async fill(): Promise<void> {
    const { concurrency } = this.options;
    const batch = Math.max(1, Math.floor(concurrency / 4));
    for (;;) {
      this.again = false;
      const free = concurrency - this.inflight.size;
      if (free <= 0 || this.stopping) return;
      if (this.backlog && free < batch && this.inflight.size > 0) return;
      const claimed = await this.options.claim(free);
      this.backlog = claimed.length === free;
      for (const job of claimed) {
        const running: Promise<void> = this.handle(job).finally(() => {
          this.inflight.delete(running);
          this.wake();
        });
        this.inflight.add(running);
      }
      if (claimed.length < free) return;
    }
  }
}
