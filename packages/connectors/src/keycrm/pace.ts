// KeyCRM answers at most 60 requests a minute per API key (openapi.keycrm.app: "до 60 запитів на
// хвилину … по API-ключу"). Our side keeps under it: every call takes a slot in a sliding window kept
// in the connection's cache (one per key), a little under KeyCRM's figure so that a request sent a
// moment late still falls into KeyCRM's window as we counted it.
//
// A call whose slot is further away than `maxWaitMs` does not wait in the worker: its delivery books
// the next BOOKED_PER_DELIVERY slots and is deferred (DeferredError: no attempt counted, no breaker) to
// the first of them; coming back, it spends its booked slots. A burst of leads thus queues in order
// instead of all coming back at once and being deferred again. A 429 that still comes (another
// process, another integration with the same key) closes the window until KeyCRM's Retry-After.
import { createHash } from 'node:crypto';
import { cacheOf } from '../kit/cache';
import { sleep } from '../kit/client-kit';
import { DeferredError } from '../kit/errors';
import type { ConnectorContext } from '../kit/types';
import type { KeycrmAuth } from './schema';

export interface Pace {
  /** Requests per window we send at most. */
  limit: number;
  windowMs: number;
  /** A call waits at most this long for its slot; beyond it the delivery is deferred. */
  maxWaitMs: number;
}

/** Under KeyCRM's 60 a minute by a margin for requests that leave late. */
export const KEYCRM_PACE: Pace = { limit: 55, windowMs: 60_000, maxWaitMs: 20_000 };

/** The cache key of the pace a connection keeps (a test puts a faster one there first). */
export const PACE_KEY = 'keycrm:pace';

export const RATE_LIMITED = 'KEYCRM_RATE_LIMITED';

/** Slots a deferred delivery books: buyer by phone, by e-mail, the card, its move. */
export const BOOKED_PER_DELIVERY = 4;
/** Deliveries whose bookings are kept at most (the oldest are forgotten past it). */
const MAX_OWNERS = 10_000;

export class Limiter {
  /** The times of the slots taken or booked (sent, about to be, or booked by a deferred delivery), oldest first. */
  private readonly slots: number[] = [];
  /** Booked slot times by delivery (its idempotency key), earliest first. */
  private readonly booked = new Map<string, number[]>();
  private closedUntil = 0;
  constructor(readonly pace: Pace) {}

  /** When the next call may go. */
  next(now = Date.now()): number {
    const { limit, windowMs } = this.pace;
    while (this.slots.length && this.slots[0]! <= now - windowMs) this.slots.shift();
    const byWindow = this.slots.length < limit ? now : this.slots[this.slots.length - limit]! + windowMs;
    return Math.max(now, byWindow, this.closedUntil);
  }

  private remove(at: number): void {
    const i = this.slots.indexOf(at);
    if (i >= 0) this.slots.splice(i, 1);
  }

  private add(at: number): void {
    let i = this.slots.length;
    while (i > 0 && this.slots[i - 1]! > at) i--;
    this.slots.splice(i, 0, at);
  }

  /**
   * Waits for a slot and takes it: one `owner` booked, or the next free one. Throws DeferredError when
   * it is further than maxWaitMs (an owner then books slots and is deferred to the first).
   */
  async take(signal?: AbortSignal, owner?: string): Promise<void> {
    const now = Date.now();
    const mine = owner ? this.booked.get(owner) : undefined;
    // A booking a window old (the delivery came back late) holds no place any more.
    while (mine?.length && mine[0]! <= now - this.pace.windowMs) mine.shift();
    if (owner && mine?.length) {
      let at = mine.shift()!;
      if (!mine.length) this.booked.delete(owner);
      if (at - now > this.pace.maxWaitMs) {
        mine.unshift(at);
        this.booked.set(owner, mine);
        throw new DeferredError(RATE_LIMITED, { until: new Date(at), code: RATE_LIMITED });
      }
      if (at < now) {
        // Sent later than booked: the slot moves to when it really goes.
        this.remove(at);
        this.add(now);
        at = now;
      }
      if (at > now) await sleep(at - now, signal);
      return;
    }
    if (owner) this.booked.delete(owner);
    const at = this.next(now);
    if (at - now > this.pace.maxWaitMs) this.defer(owner, now);
    this.add(at);
    if (at > now) await sleep(at - now, signal);
  }

  /** Defers the call: an owner books its slots first and comes back at the first. */
  defer(owner: string | undefined, now = Date.now()): never {
    let until = this.next(now);
    if (owner) {
      this.release(owner);
      const times: number[] = [];
      for (let i = 0; i < BOOKED_PER_DELIVERY; i++) {
        const at = this.next(now);
        this.add(at);
        times.push(at);
      }
      this.booked.delete(owner);
      this.booked.set(owner, times);
      for (const old of this.booked.keys()) {
        if (this.booked.size <= MAX_OWNERS) break;
        this.booked.delete(old);
      }
      until = times[0]!;
    }
    throw new DeferredError(RATE_LIMITED, { until: new Date(until), code: RATE_LIMITED });
  }

  /** The delivery is done: its unused bookings go back to the window. */
  release(owner: string): void {
    const mine = this.booked.get(owner);
    if (!mine) return;
    this.booked.delete(owner);
    for (const at of mine) this.remove(at);
  }

  /** KeyCRM said 429: nothing goes before `until`. */
  close(until: number): void {
    this.closedUntil = Math.max(this.closedUntil, until);
  }
}

/** The connection's limiter for its key (a new key starts a new window). */
export function limiterOf(ctx: ConnectorContext<KeycrmAuth, unknown>): Limiter {
  const cache = cacheOf(ctx);
  const pace = cache.get<Pace>(PACE_KEY, () => KEYCRM_PACE);
  const byKey = cache.get('keycrm:limiters', () => new Map<string, Limiter>());
  const id = createHash('sha256').update(ctx.auth.apiKey).digest('base64url');
  let limiter = byKey.get(id);
  if (!limiter) {
    // The old key's window is of no use once the key changed.
    byKey.clear();
    limiter = new Limiter(pace);
    byKey.set(id, limiter);
  }
  return limiter;
}

/** Which delivery a context's calls are for (deliver sets it on its own copy of the context). */
const ownersOf = (ctx: ConnectorContext<KeycrmAuth, unknown>) =>
  cacheOf(ctx).get('keycrm:owners', () => new WeakMap<object, string>());

export function withOwner<C extends ConnectorContext<KeycrmAuth, unknown>>(ctx: C, owner: string): C {
  const own = { ...ctx, cache: cacheOf(ctx) };
  ownersOf(ctx).set(own, owner);
  return own;
}

export const ownerOf = (ctx: ConnectorContext<KeycrmAuth, unknown>): string | undefined => ownersOf(ctx).get(ctx);
