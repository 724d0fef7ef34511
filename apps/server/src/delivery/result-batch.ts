// Successes stored together: the usual result (a delivery that went through, its hook's only one,
// nothing for its destination type to record) of deliveries that finish together is stored in one
// constant statement and one commit, the way ingest's group commit writes leads. Every other result
// goes through finishDelivery's transaction (finish.ts).
import type { DeliveryResult } from '@leadrelay/connectors';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { type RawDb, rawDb, type Statement } from '../db/raw-sql';
import type { DeliveryRow } from '../db/schema';
import { INITIAL_CONVERSIONS_CTE } from './initial-conversions';
import { iso } from './queue';

/** Most results in one statement. */
export const MAX_RESULTS = 200;
/** Statements under way at once; results that finish meanwhile wait for the next one. */
export const MAX_IN_FLIGHT = 2;

const MAX_MESSAGE = 2000;

/**
 * $1 the results as a JSON array, $2 now, $3 the worker, $4 their delivery ids. The deliveries are
 * found by their primary key: `status || ''` keeps the planner off the partial index of running
 * deliveries (`deliveries_leased_idx`), whose entries of finished ones linger until a vacuum; a
 * bitmap scan of it read some 1,100 heap pages per batch in the bench (auto_explain). Per result: the attempt is recorded (even
 * when the lease was lost); the delivery is delivered only while this worker still holds its lease,
 * and then its hook too, and the destination's breaker is reset when it had counted. Answers the
 * stored deliveries and the destinations whose breaker was reset. A delivered lead whose source sends
 * conversions gets its initial event (initial-conversions.ts); the answer counts them.
 */
export const STORE_SUCCESSES: Statement = {
  name: 'delivery_store_successes_v3',
  text: `with r as (
    select * from jsonb_to_recordset($1::jsonb) as x(id uuid, hook_id uuid, destination_id uuid, number int,
      http_status int, request jsonb, response jsonb, duration_ms int, started_at timestamptz,
      external_id text, note text)
  ), done as (
    update deliveries d set status = 'delivered', external_id = r.external_id, delivered_at = $2::timestamptz,
      last_error = r.note, lease_until = null, leased_by = null
    from r where d.id = any($4::uuid[]) and d.id = r.id and d.leased_by = $3 and d.status || '' = 'running'
    returning d.id, d.hook_id, d.destination_id, d.delivered_at
  ), ${INITIAL_CONVERSIONS_CTE}, attempt as (
    insert into delivery_attempts (delivery_id, number, outcome, http_status, request, response, error, duration_ms, started_at)
    select r.id, r.number, 'ok', r.http_status, r.request, r.response, null, r.duration_ms, r.started_at from r
  ), hook as (
    update hooks set status = 'delivered', updated_at = $2::timestamptz from done where hooks.id = done.hook_id
  ), healed as (
    update destination_health h set consecutive_failures = 0, paused_until = null, pauses = 0
    where h.destination_id in (select destination_id from done) and (h.consecutive_failures > 0 or h.pauses > 0)
    returning h.destination_id
  )
  select coalesce((select json_agg(id) from done), '[]') as stored,
    coalesce((select json_agg(destination_id) from healed), '[]') as healed,
    (select count(*) from conversion)::int as conversions`,
};

/** A success to store: the claimed row and what its attempt reported. */
export interface Success {
  row: DeliveryRow;
  outcome: { result: DeliveryResult };
  startedAt: Date;
  durationMs: number;
}

/**
 * What storing one success did: stored (the lease was still ours), whether its destination's
 * breaker was reset, and whether its statement made conversion events (the sender is woken).
 */
export interface Stored {
  stored: boolean;
  healed: boolean;
  conversions: boolean;
}

interface Waiting {
  success: Success;
  resolve: (stored: Stored) => void;
  reject: (error: unknown) => void;
}

const asJson = (s: Success) => ({
  id: s.row.id,
  hook_id: s.row.hookId,
  destination_id: s.row.destinationId,
  number: s.row.attempts,
  http_status: s.outcome.result.response?.status ?? null,
  request: s.outcome.result.request ?? null,
  response: s.outcome.result.response ?? null,
  duration_ms: s.durationMs,
  started_at: iso(s.startedAt),
  external_id: s.outcome.result.externalId ?? null,
  // A note (an SMS skipped for a landline) is kept where an error would be: the web translates both.
  note: s.outcome.result.note?.slice(0, MAX_MESSAGE) ?? null,
});

/**
 * Collects successes. One is stored at the next turn of the event loop when fewer than
 * MAX_IN_FLIGHT statements are under way, else with the next statement when one ends: nothing
 * waits for a timer, and the busier the worker the bigger the batches. When a statement of several
 * fails (none of it is stored), each of its results is stored alone, so only one that fails alone fails.
 */
export class ResultBatch {
  private readonly raw: RawDb;
  private readonly queue: Waiting[] = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(
    db: Db,
    private readonly q: { workerId: string; now: () => Date; log: FastifyBaseLogger },
  ) {
    this.raw = rawDb(db);
  }

  store(success: Success): Promise<Stored> {
    return new Promise((resolve, reject) => {
      this.queue.push({ success, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= MAX_IN_FLIGHT || !this.queue.length) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      while (this.inFlight < MAX_IN_FLIGHT && this.queue.length) {
        const batch = this.queue.splice(0, MAX_RESULTS);
        this.inFlight++;
        void this.run(batch).finally(() => {
          this.inFlight--;
          this.schedule();
        });
      }
    });
  }

  private async run(batch: Waiting[]): Promise<void> {
    try {
      const answers = await this.write(batch.map((w) => w.success));
      batch.forEach((w, i) => {
        w.resolve(answers[i]!);
      });
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return;
      }
      this.q.log.warn(
        { err: error, results: batch.length },
        'storing delivery results together failed; storing them one by one',
      );
      for (const w of batch) await this.write([w.success]).then(([one]) => w.resolve(one!), w.reject);
    }
  }

  private async write(successes: Success[]): Promise<Stored[]> {
    const [answer] = await this.raw.query<{ stored: string[]; healed: string[]; conversions: number }>(
      STORE_SUCCESSES,
      [
        JSON.stringify(successes.map(asJson)),
        iso(this.q.now()),
        this.q.workerId,
        `{${successes.map((s) => s.row.id).join(',')}}`,
      ],
    );
    const stored = new Set(answer?.stored ?? []);
    const healed = new Set(answer?.healed ?? []);
    // A destination's breaker is reset once; the first of its results here reports it.
    const told = new Set<string>();
    return successes.map(({ row }) => {
      const isStored = stored.has(row.id);
      const isHealed = isStored && healed.has(row.destinationId) && !told.has(row.destinationId);
      if (isHealed) told.add(row.destinationId);
      return { stored: isStored, healed: isHealed, conversions: (answer?.conversions ?? 0) > 0 };
    });
  }
}
