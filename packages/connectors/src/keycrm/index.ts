// KeyCRM (a Ukrainian e-commerce CRM) as a destination (issue 32): every lead a card in the chosen
// pipeline (воронка) and status, for the buyer found by phone, then e-mail (contact.client_id), or
// made by KeyCRM from the card's contact; with source, UTM fields, the manager comment and the
// responsible manager from distribution when KeyCRM has that user.
//
// Pace: KeyCRM takes 60 requests a minute per key. pace.ts keeps us under it and defers a delivery
// (DeferredError: no attempt counted, no breaker) when its next slot is far off or KeyCRM answered
// 429; a delivery deferred MAX_DEFERRALS times in this process is then retried as a failure, so a key
// that is never let through still ends in a state a person sees.
//
// Status: KeyCRM's card creation takes no status (docs: pipeline_id only); a card that did not land in
// the chosen status is moved there with PUT /pipelines/cards/{id} {status_id}.
//
// Repeats: KeyCRM has no idempotency key. The card's manager comment ends with a mark derived from
// the delivery's idempotency key. The connection remembers the cards it made (a deferral between the
// card and its move comes back to the same card); after an attempt whose outcome is unknown
// (input.outcomeUnknown) the pipeline's cards of the last three days are searched for the mark first.
//
// Stage changes: KeyCRM's webhooks are outgoing only, set up by hand in its automation triggers; its
// API cannot subscribe us, so the watch is pasted (stage-watch.ts): the person makes a trigger's
// webhook with our address; each card it names that we delivered is read back for its status.
import { cacheOf } from '../kit/cache';
import { defineConnector } from '../kit/define-connector';
import { DeferredError, PermanentError, RetryableError } from '../kit/errors';
import { createKeyedLock, type LockKeys, lockAll, personLockKeys, sortedKeys } from '../kit/keyed-lock';
import { cachedStageName } from '../kit/stage-names';
import type { AttemptTrace, DeliveryInput } from '../kit/types';
import {
  cardsCreatedBetween,
  createCard,
  findBuyers,
  KEYCRM_API_URL,
  type KeycrmContext,
  moveCard,
  pipelines,
  type RawCard,
  sources,
  statuses,
  users,
} from './client';
import { codes } from './codes';
import { buyerMatches, cardBody, managerOf, markerOf, type RawBuyer, utcTime, validEmail } from './mapping';
import { limiterOf, RATE_LIMITED, withOwner } from './pace';
import {
  type KeycrmAuth,
  type KeycrmPipeline,
  type KeycrmSettings,
  type KeycrmSource,
  ZKeycrmAuth,
  ZKeycrmSettings,
} from './schema';
import { keycrmStageWatch } from './stage-watch';

type Ctx = KeycrmContext<KeycrmSettings>;

/** Lists the screen and delivery read are kept this long per connection (each read costs slots). */
const LIST_TTL_MS = 60_000;
/** After this many deferrals of one delivery in this process, a 429 counts as a failure. */
export const MAX_DEFERRALS = 30;
/** How far back a retry with an unknown outcome looks for its card, and how many pages (50 each). */
const LOOKBACK_MS = 3 * 24 * 3_600_000;
const LOOKBACK_PAGES = 4;

/** A user KeyCRM lists in one of these states gets no leads (any other state, or none, is a working user). */
const INACTIVE = new Set(['blocked', 'inactive', 'disabled', 'deleted', 'fired', 'false', '0']);
const isId = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0;
const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

/** A value read once per LIST_TTL_MS per connection. */
async function kept<T>(ctx: Ctx, key: string, read: () => Promise<T>): Promise<T> {
  const store = cacheOf(ctx).get('keycrm:lists', () => new Map<string, { at: number; value: Promise<T> }>());
  const hit = store.get(key);
  if (hit && Date.now() - hit.at < LIST_TTL_MS) return hit.value;
  // Concurrent readers share one read; a failed one is not kept.
  const value = read();
  store.set(key, { at: Date.now(), value });
  value.catch(() => {
    if (store.get(key)?.value === value) store.delete(key);
  });
  return value;
}

export async function keycrmPipelines(ctx: Ctx): Promise<KeycrmPipeline[]> {
  return kept(ctx, 'pipelines', async () => {
    const out: KeycrmPipeline[] = [];
    for (const p of await pipelines(ctx)) {
      if (!isId(p.id)) continue;
      const stages = (await statuses(ctx, p.id))
        .filter((s) => isId(s.id))
        .map((s) => ({ id: s.id as number, name: text(s.title) || text(s.name) || String(s.id) }));
      out.push({ id: p.id, name: text(p.name) || String(p.id), stages });
    }
    return out;
  });
}

export async function keycrmUsers(ctx: Ctx): Promise<{ id: number; name: string }[]> {
  return kept(ctx, 'users', async () =>
    (await users(ctx))
      .filter((u) => isId(u.id) && !INACTIVE.has(String(u.status).toLowerCase()))
      .map((u) => ({ id: u.id as number, name: text(u.full_name) || text(u.email) || String(u.id) })),
  );
}

export async function keycrmSources(ctx: Ctx): Promise<KeycrmSource[]> {
  return kept(ctx, 'sources', async () =>
    (await sources(ctx))
      .filter((s) => isId(s.id))
      .map((s) => ({ id: s.id as number, name: text(s.name) || String(s.id) })),
  );
}

/**
 * The chosen status is one of the chosen pipeline's, checked before anything is made (a card in the
 * wrong status would be half a delivery): the pipeline's statuses, read once a minute.
 */
async function checkStatus(ctx: Ctx): Promise<void> {
  const { pipelineId, statusId } = ctx.settings;
  if (!statusId || !pipelineId) return;
  let list: { id?: unknown }[];
  try {
    list = await kept(ctx, `statuses:${pipelineId}`, () => statuses(ctx, pipelineId));
  } catch (err) {
    if (err instanceof PermanentError && err.httpStatus === 404) {
      throw new PermanentError('KEYCRM_PIPELINE_NOT_FOUND', { ...err.trace, httpStatus: 404, code: 'HTTP_4XX' });
    }
    throw err;
  }
  if (!list.some((s) => s.id === statusId)) {
    throw new PermanentError('KEYCRM_STATUS_NOT_FOUND', { code: 'HTTP_4XX' });
  }
}

// Without ctx.withLock (contexts that never race) the lock is still held for this connection within this process.
const lockOf = (ctx: Ctx) =>
  ctx.withLock ??
  (<T>(keys: LockKeys, fn: () => Promise<T>) =>
    lockAll(
      cacheOf(ctx).get('lock', createKeyedLock),
      sortedKeys(keys).map((key) => `keycrm|${key}`),
      fn,
    ));

/** The buyer of the lead's phone, else of its e-mail (KeyCRM's filters; the match is confirmed here). */
async function findBuyer(ctx: Ctx, input: DeliveryInput): Promise<number | undefined> {
  const { phone } = input.lead;
  const email = validEmail(input.lead.email);
  if (phone) {
    const found = (await findBuyers(ctx, { buyer_phone: phone })).find((b) => buyerMatches(b as RawBuyer, { phone }));
    if (found) return (found as RawBuyer).id as number;
  }
  if (email) {
    const found = (await findBuyers(ctx, { buyer_email: email })).find((b) => buyerMatches(b as RawBuyer, { email }));
    if (found) return (found as RawBuyer).id as number;
  }
  return undefined;
}

/** Cards this connection made, by delivery, until they are in their status (a deferral in between comes back to them). */
const madeOf = (ctx: Ctx) => cacheOf(ctx).get('keycrm:made', () => new Map<string, RawCard>());

async function ourEarlierCard(ctx: Ctx, marker: string): Promise<RawCard | undefined> {
  const now = new Date();
  const cards = await cardsCreatedBetween(
    ctx,
    ctx.settings.pipelineId,
    utcTime(new Date(now.getTime() - LOOKBACK_MS)),
    utcTime(new Date(now.getTime() + 60_000)),
    LOOKBACK_PAGES,
  );
  return cards.find((c) => isId(c.id) && typeof c.manager_comment === 'string' && c.manager_comment.includes(marker));
}

async function deliverCard(ctx: Ctx, input: DeliveryInput): Promise<{ card: RawCard; trace: AttemptTrace }> {
  const marker = markerOf(input.idempotencyKey);
  const made = madeOf(ctx);
  const remembered = made.get(input.idempotencyKey);
  if (remembered) return { card: remembered, trace: {} };
  const keys = personLockKeys(input.lead, `lead:${input.idempotencyKey}`);
  return lockOf(ctx)(keys, async () => {
    if (input.outcomeUnknown) {
      const earlier = await ourEarlierCard(ctx, marker);
      if (earlier) return { card: earlier, trace: {} };
    }
    await checkStatus(ctx);
    const buyerId = await findBuyer(ctx, input);
    const userIds = input.assignee?.id || ctx.settings.managerId ? await keycrmUsers(ctx) : [];
    const managerId = managerOf(input.assignee?.id, ctx.settings, new Set(userIds.map((u) => u.id)));
    const body = cardBody(input.lead, ctx.settings, { buyerId, managerId, raw: input.raw, marker });
    const { data, trace } = await createCard(ctx, body);
    made.set(input.idempotencyKey, data);
    // A bounded memory: the oldest entries go first.
    for (const old of made.keys()) {
      if (made.size <= 1000) break;
      made.delete(old);
    }
    return { card: data, trace };
  });
}

const deferralsOf = (ctx: Ctx) => cacheOf(ctx).get('keycrm:deferrals', () => new Map<string, number>());

export const keycrm = defineConnector<KeycrmAuth, KeycrmSettings>({
  slug: 'keycrm',
  kind: 'destination',
  codes,
  // EMULATORS=true (demo installs, end-to-end tests): its emulator, loaded only then.
  demo: () => import('./demo').then((m) => m.startDemo()),
  // A lead with no phone, e-mail or name would be an empty contact: refused (LEAD_NO_CONTACT).
  requiresContact: true,
  connectAuth: 'manual',
  auth: ZKeycrmAuth,
  settings: ZKeycrmSettings,
  config: { KEYCRM_API_URL: { type: 'url', default: KEYCRM_API_URL } },
  baseUrl: (cfg) => cfg.KEYCRM_API_URL as string | undefined,
  // Status changes as the lead's first reaction and its stage (issue 33), through a trigger's webhook
  // the person makes by hand (stage-watch.ts); a status's name from the pipelines list, kept a while.
  pastedStageWatch: {
    ...keycrmStageWatch((ctx) => keycrmPipelines(ctx)),
    stageName: (ctx, stage) =>
      cachedStageName(
        ctx,
        async () =>
          (await keycrmPipelines(ctx)).flatMap((p) =>
            p.stages.map((s) => ({ id: String(s.id), name: s.name, pipelineId: String(p.id) })),
          ),
        stage,
      ),
  },
  // KeyCRM refusing a list request itself answers CRM_REQUEST_FAILED with its reason.
  loaderRefusal: 'CRM_REQUEST_FAILED',
  loaders: {
    pipelines: (ctx) => keycrmPipelines(ctx),
    sources: (ctx) => keycrmSources(ctx),
    users: async (ctx) => (await keycrmUsers(ctx)).map((u) => ({ id: String(u.id), name: u.name })),
  },
  // The key is accepted (the pipelines answer), and the pipeline and status chosen still exist.
  async testConnection(ctx) {
    const list = await keycrmPipelines(ctx);
    const { pipelineId, statusId } = ctx.settings;
    if (pipelineId === undefined) return;
    const pipeline = list.find((p) => p.id === pipelineId);
    if (!pipeline) throw new PermanentError('KEYCRM_PIPELINE_NOT_FOUND', { code: 'KEYCRM_PIPELINE_NOT_FOUND' });
    if (statusId !== undefined && !pipeline.stages.some((s) => s.id === statusId)) {
      throw new PermanentError('KEYCRM_STATUS_NOT_FOUND', { code: 'KEYCRM_STATUS_NOT_FOUND' });
    }
  },
  async deliver(outer, input) {
    // Its calls spend the slots this delivery booked when it was deferred (pace.ts).
    const ctx = withOwner(outer, input.idempotencyKey);
    const deferrals = deferralsOf(ctx);
    try {
      const { card, trace } = await deliverCard(ctx, input);
      const { statusId } = ctx.settings;
      const id = card.id as number;
      let moved: AttemptTrace = {};
      if (statusId && card.status_id !== statusId) {
        // A deferral here comes back to the remembered card and moves it then.
        moved = (await moveCard(ctx, id, statusId)).trace;
      }
      madeOf(ctx).delete(input.idempotencyKey);
      deferrals.delete(input.idempotencyKey);
      limiterOf(ctx).release(input.idempotencyKey);
      return { ...(trace.request ? trace : moved), externalId: String(id) };
    } catch (err) {
      if (!(err instanceof DeferredError)) {
        limiterOf(ctx).release(input.idempotencyKey);
        throw err;
      }
      const count = (deferrals.get(input.idempotencyKey) ?? 0) + 1;
      deferrals.set(input.idempotencyKey, count);
      for (const old of deferrals.keys()) {
        if (deferrals.size <= 10_000) break;
        deferrals.delete(old);
      }
      if (count <= MAX_DEFERRALS) throw err;
      deferrals.delete(input.idempotencyKey);
      limiterOf(ctx).release(input.idempotencyKey);
      throw new RetryableError(RATE_LIMITED, {
        code: 'RATE_LIMITED',
        httpStatus: 429,
        retryAfterMs: Math.max(0, err.until.getTime() - Date.now()),
      });
    }
  },
});

export { ZKeycrmAuth, ZKeycrmSettings };
