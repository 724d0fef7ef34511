// The offered load of the end-to-end benches (`e2e`, `crash`, `peer`): pooled 1–2 KB leads posted
// at a steady rate, each with its sequence number, and what a destination emulator's records say
// about them afterwards (delivered while sending, post-to-receipt latency, lost, twice). One load
// generator for LeadRelay and for the peer, so both are offered exactly the same.
import { setTimeout as sleep } from 'node:timers/promises';
import type { EmulatedRecord } from '@leadrelay/connectors/http/emulator';
import { percentiles } from './harness';
import { LeadPool } from './leads';

export interface Sent {
  sentAt: number;
  answeredAt?: number;
  status?: number;
  error?: string;
}

/** Requests in flight at most: beyond it a lead is skipped (counted), not queued in the generator. */
export const MAX_IN_FLIGHT = 1000;

export class LeadLoad {
  readonly pool = new LeadPool(1000, 7);
  readonly sent = new Map<number, Sent>();
  inFlight = 0;
  skipped = 0;

  /** `urls`: leads go to each in turn; `idempotencyKey`: send an Idempotency-Key per lead. */
  constructor(
    readonly runId: string,
    private readonly urls: string[],
    private readonly idempotencyKey = true,
  ) {}

  /** Posts lead `seq` (unless MAX_IN_FLIGHT are in flight); resolves when it is answered or failed. */
  async send(seq: number): Promise<void> {
    if (this.inFlight >= MAX_IN_FLIGHT) {
      this.skipped += 1;
      return;
    }
    const entry: Sent = { sentAt: Date.now() };
    this.sent.set(seq, entry);
    this.inFlight += 1;
    await fetch(this.urls[seq % this.urls.length]!, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(this.idempotencyKey ? { 'idempotency-key': `${this.runId}-${seq}` } : {}),
      },
      body: this.pool.body(this.runId, seq, entry.sentAt),
      signal: AbortSignal.timeout(10_000),
    })
      .then(async (res) => {
        await res.arrayBuffer();
        entry.status = res.status;
        entry.answeredAt = Date.now();
      })
      .catch((error: Error & { cause?: { code?: string } }) => {
        entry.error = error.name === 'TimeoutError' ? 'timeout (10 s)' : (error.cause?.code ?? error.message);
      })
      .finally(() => {
        this.inFlight -= 1;
      });
  }

  /**
   * `rate` leads per second for `duration` s (sequence 0 …), then up to 10 s for the answers.
   * Returns when sending started (epoch ms) and how long it took (s).
   */
  async steady(rate: number, duration: number): Promise<{ total: number; wallStart: number; sendSeconds: number }> {
    const total = Math.round(rate * duration);
    const start = performance.now();
    const wallStart = Date.now();
    let next = 0;
    while (next < total && performance.now() - start < duration * 1000 + 5_000) {
      const due = Math.min(total, Math.floor(((performance.now() - start) * rate) / 1000) + 1);
      while (next < due) void this.send(next++);
      await sleep(2);
    }
    const sendSeconds = (Date.now() - wallStart) / 1000;
    for (let i = 0; i < 100 && this.inFlight > 0; i++) await sleep(100);
    return { total, wallStart, sendSeconds };
  }

  /** The sequence numbers whose post was answered with `status`. */
  answered(status: number): number[] {
    return [...this.sent].filter(([, s]) => s.status === status).map(([seq]) => seq);
  }

  /** How many posts ended how: per status code, or `error: …`. */
  statuses(): Record<string, number> {
    const statuses: Record<string, number> = {};
    for (const s of this.sent.values()) {
      const k = s.status ? String(s.status) : `error: ${s.error}`;
      statuses[k] = (statuses[k] ?? 0) + 1;
    }
    return statuses;
  }
}

/**
 * A lead's sequence number in what the destination received: LeadRelay's http destination sends
 * the lead with the form's extra fields under `lead.custom`; a forwarder (the peer) the form as posted.
 */
export function benchSeq(body: unknown): number | undefined {
  const b = body as { bench_seq?: string; lead?: { custom?: Record<string, string> } } | undefined;
  const v = b?.lead?.custom?.bench_seq ?? b?.bench_seq;
  return v === undefined ? undefined : Number(v);
}

/** The destination's records by sequence number (more than one: a lead recorded twice). */
export function recordsBySeq(records: readonly EmulatedRecord[]): Map<number, EmulatedRecord[]> {
  const bySeq = new Map<number, EmulatedRecord[]>();
  for (const r of records) {
    const seq = benchSeq(r.body);
    if (seq === undefined) continue;
    const list = bySeq.get(seq);
    if (list) list.push(r);
    else bySeq.set(seq, [r]);
  }
  return bySeq;
}

/** Records the destination made between `wallStart` and the end of sending, per second of sending. */
export function deliveredPerSWhileSending(records: readonly EmulatedRecord[], wallStart: number, sendSeconds: number) {
  const end = wallStart + sendSeconds * 1000;
  const n = records.filter((r) => {
    const t = Date.parse(r.createdAt);
    return t >= wallStart && t <= end;
  }).length;
  return Math.round((n / sendSeconds) * 10) / 10;
}

/** Waits (up to `timeoutS`) until every sequence in `expected` has a record; returns how many are still missing. */
export async function waitForRecords(
  records: readonly EmulatedRecord[],
  expected: readonly number[],
  timeoutS: number,
  pollMs = 500,
): Promise<number> {
  const start = Date.now();
  for (;;) {
    const have = new Set(records.map((r) => benchSeq(r.body)));
    const missing = expected.filter((s) => !have.has(s)).length;
    if (missing === 0 || Date.now() - start > timeoutS * 1000) return missing;
    await sleep(pollMs);
  }
}

/** Per accepted lead, from its post to the destination's receipt (its first record). */
export function sendToReceipt(load: LeadLoad, accepted: readonly number[], bySeq: Map<number, EmulatedRecord[]>) {
  const ms: number[] = [];
  for (const seq of accepted) {
    const record = bySeq.get(seq)?.[0];
    if (record) ms.push(Date.parse(record.createdAt) - load.sent.get(seq)!.sentAt);
  }
  return percentiles(ms);
}
