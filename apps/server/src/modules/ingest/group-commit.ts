// Group commit: webhooks that arrive together are written together, in one statement and one
// commit, and each request is answered only after that commit. Under load a commit (its WAL
// flush) and a round trip are shared by many leads instead of paid by each.
import { randomInt } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { type RawDb, rawDb } from '../../db/raw-sql';
import { type KeptLead, type LeadWritten, writeBatch, writeLead } from './lead-writer';

/** Most leads in one statement. */
export const MAX_BATCH = 200;
/**
 * Batches written at the same time, each holding one pooled connection while it commits (the pool
 * has 10). Measured with the bench on 2 cores: 3 gave 1,693 leads/s, 6 gave 2,066 and used the CPU.
 */
export const MAX_IN_FLIGHT = 6;
/**
 * Usage counter shards (ingest-statements.ts: the hold steps) one process writes: one per batch
 * slot, and one for leads written alone. Each process takes a random block of them, so that two
 * API processes rarely share one either.
 */
const SHARDS_PER_PROCESS = MAX_IN_FLIGHT + 1;
const SHARD_BLOCKS = 64;

interface Waiting {
  lead: KeptLead;
  /** `integration id + key`: a batch never holds a key twice. */
  slot: string;
  log: FastifyBaseLogger;
  resolve: (written: LeadWritten | undefined) => void;
  reject: (error: unknown) => void;
}

/**
 * Collects leads with one dedupe key each. A lead is written at the next turn of the event loop
 * when fewer than `MAX_IN_FLIGHT` batches are being written, else with the next batch when one
 * ends: nothing waits for a timer, and the busier the server the bigger the batches.
 *
 * The answers are the ones the leads would get one after another, in arrival order:
 * - a batch is a prefix of the queue that stops before a key already in it or in a batch being
 *   written, so a repeat of a lead is written by a later batch, sent only after that lead's batch
 *   committed, and finds its key. (Two batches in flight at once reach the database in any order:
 *   a repeat sent beside its first could take the key before it.)
 * - the round-robin counter is taken once per written lead, in the batch's order;
 * - when a batch statement fails (nothing of it is written), its leads are written one by one in
 *   order, so each gets its own answer and only a lead that fails alone fails.
 */
export class GroupCommit {
  private readonly queue: Waiting[] = [];
  private inFlight = 0;
  /** The slots (`integration id + key`) of the batches being written. */
  private readonly writing = new Set<string>();
  private scheduled = false;
  /** The batch slots not in use; a batch adds its leads to its slot's usage shard. */
  private readonly freeSlots = Array.from({ length: MAX_IN_FLIGHT }, (_, i) => i);
  private readonly firstShard = randomInt(SHARD_BLOCKS) * SHARDS_PER_PROCESS;

  constructor(private readonly raw: RawDb) {}

  /** Writes the lead (alone when it has several keys); resolves after the commit. */
  write(lead: KeptLead, log: FastifyBaseLogger): Promise<LeadWritten | undefined> {
    if (lead.keys.length !== 1) return writeLead(this.raw, lead, this.firstShard + MAX_IN_FLIGHT);
    return new Promise((resolve, reject) => {
      this.queue.push({ lead, slot: `${lead.source.id} ${lead.keys[0]}`, log, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= MAX_IN_FLIGHT || !this.queue.length) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      while (this.inFlight < MAX_IN_FLIGHT && this.queue.length) {
        const batch = this.take();
        // The next lead repeats one being written: it goes when that batch has committed.
        if (!batch.length) break;
        const slot = this.freeSlots.pop()!;
        this.inFlight++;
        for (const w of batch) this.writing.add(w.slot);
        void this.run(batch, this.firstShard + slot).finally(() => {
          for (const w of batch) this.writing.delete(w.slot);
          this.freeSlots.push(slot);
          this.inFlight--;
          this.schedule();
        });
      }
    });
  }

  private take(): Waiting[] {
    const slots = new Set<string>();
    let n = 0;
    while (n < this.queue.length && n < MAX_BATCH) {
      const slot = this.queue[n]!.slot;
      if (slots.has(slot) || this.writing.has(slot)) break;
      slots.add(slot);
      n++;
    }
    return this.queue.splice(0, n);
  }

  private async run(batch: Waiting[], shard: number): Promise<void> {
    let rows: LeadWritten[];
    try {
      rows = await writeBatch(
        this.raw,
        batch.map((w) => w.lead),
        new Date(),
        shard,
      );
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return;
      }
      batch[0]!.log.warn({ err: error, leads: batch.length }, 'group commit failed; its leads are written one by one');
      for (const waiting of batch) {
        await writeLead(this.raw, waiting.lead, shard).then(waiting.resolve, waiting.reject);
      }
      return;
    }
    batch.forEach((waiting, i) => {
      waiting.resolve(rows[i]);
    });
  }
}

const committers = new WeakMap<Db, GroupCommit>();

/** The group commit of a database (one per process and database). */
export function groupCommit(db: Db): GroupCommit {
  let committer = committers.get(db);
  if (!committer) {
    committer = new GroupCommit(rawDb(db));
    committers.set(db, committer);
  }
  return committer;
}
