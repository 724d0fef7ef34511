// Webhooks in the Pipedrive emulator: subscriptions (v1 list, create with Pipedrive's field errors
// and a limit of 40, delete), and the v2 payloads they receive. A deal or lead changed through the
// API (PATCH /api/v2/deals/{id}, PATCH /v1/leads/{id}; change_source "api") or by a user in the app
// (/__emulator/deals/{id}/change, /__emulator/leads/{id}/change; change_source "app") is posted to
// every active subscription matching change.<entity> (or a wildcard): JSON { meta, data, previous },
// HTTP Basic auth when http_auth_user is set, no signature, fire and forget with Pipedrive's 10 s wait.

import { randomUUID } from 'node:crypto';
import { ownValue, setOwn } from '@leadrelay/shared';
import type { FastifyInstance } from 'fastify';
import { type Api, bad, bodyOf, idParam, notFound, nowV1, nowV2, ok, onlyParams } from './emulator-api';
import { ADD_DEAL_PARAMS } from './emulator-deals';
import { checkPipelineStage } from './emulator-pipelines';
import { type EmulatorStore, PIPEDRIVE_SEED, type Row } from './emulator-state';

/** Pipedrive counts a delivery failed without an answer in this time. */
export const PIPEDRIVE_WEBHOOK_TIMEOUT_MS = 10_000;
const COMPANY_ID = 1;
/** Sent webhooks kept for tests and the demo (the demo runs for days). */
const MAX_SENT = 1000;
const WEBHOOK_ACTIONS = new Set(['create', 'change', 'delete', '*']);
const WEBHOOK_OBJECTS = new Set([
  'activity',
  'deal',
  'lead',
  'note',
  'organization',
  'person',
  'pipeline',
  'product',
  'stage',
  'user',
  '*',
]);
const DEAL_STATUSES = new Set(['open', 'won', 'lost']);

type Entity = 'deal' | 'lead';
type Record_ = Record<string, unknown>;

/** Posts a change to every matching v2 subscription; never waits for them. */
function announce(
  store: EmulatorStore,
  entity: Entity,
  current: Record_,
  previous: Record_,
  userId: number,
  source: 'api' | 'app',
): void {
  const record = (entry: (typeof store.sent)[number]) => {
    store.sent.push(entry);
    if (store.sent.length > MAX_SENT) store.sent.splice(0, store.sent.length - MAX_SENT);
  };
  for (const hook of store.webhooks) {
    const action = String(hook.event_action);
    const object = String(hook.event_object);
    if (!hook.is_active || hook.version !== '2.0') continue;
    if ((action !== '*' && action !== 'change') || (object !== '*' && object !== entity)) continue;
    const payload = {
      meta: {
        action: 'change',
        entity,
        entity_id: String(current.id),
        company_id: String(COMPANY_ID),
        user_id: String(userId),
        id: randomUUID(),
        correlation_id: randomUUID(),
        timestamp: nowV2(),
        type: 'general',
        version: '2.0',
        webhook_id: String(hook.id),
        webhook_owner_id: String(hook.owner_id),
        is_bulk_edit: false,
        attempt: 1,
        host: 'acme.pipedrive.com',
        change_source: source,
        permitted_user_ids: PIPEDRIVE_SEED.users.map((u) => String(u.id)),
      },
      data: current,
      previous,
    };
    const authorization =
      typeof hook.http_auth_user === 'string' && hook.http_auth_user
        ? `Basic ${Buffer.from(`${hook.http_auth_user}:${String(hook.http_auth_password ?? '')}`).toString('base64')}`
        : null;
    const url = String(hook.subscription_url);
    void fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Pipedrive-Webhook',
        ...(authorization ? { authorization } : {}),
      },
      body: JSON.stringify(payload),
      signal: AbortSignal.timeout(PIPEDRIVE_WEBHOOK_TIMEOUT_MS),
    })
      .then(async (res) => {
        await res.arrayBuffer().catch(() => undefined);
        record({ url, payload, authorization, status: res.status });
      })
      .catch(() => record({ url, payload, authorization, status: 0 }));
  }
}

/** Applies the changes to the record and returns what they replaced (Pipedrive's `previous`). */
function apply(record: Record_, changes: Record_): Record_ {
  const previous: Record_ = {};
  for (const [k, v] of Object.entries(changes)) {
    if (JSON.stringify(ownValue(record, k)) === JSON.stringify(v)) continue;
    setOwn<unknown>(previous, k, ownValue(record, k) ?? null);
    setOwn(record, k, v);
  }
  return previous;
}

function changeDeal(store: EmulatorStore, deal: Row, b: Record_, userId: number, source: 'api' | 'app') {
  const changes: Record_ = {};
  if (b.title !== undefined) {
    if (typeof b.title !== 'string' || !b.title.trim()) throw bad('Title must be given');
    changes.title = b.title;
  }
  if (b.status !== undefined) {
    if (!DEAL_STATUSES.has(String(b.status))) throw bad('Invalid status');
    changes.status = b.status;
  }
  if (b.stage_id !== undefined || b.pipeline_id !== undefined) {
    Object.assign(changes, checkPipelineStage(b.pipeline_id ?? deal.pipeline_id, b.stage_id ?? deal.stage_id));
  }
  if (b.owner_id !== undefined) {
    if (!PIPEDRIVE_SEED.users.some((u) => u.id === Number(b.owner_id))) throw bad('Owner not found');
    changes.owner_id = Number(b.owner_id);
  }
  const previous = apply(deal, changes);
  if (Object.keys(previous).length) {
    if ('stage_id' in previous) deal.stage_change_time = nowV2();
    deal.update_time = nowV2();
    announce(store, 'deal', deal, previous, userId, source);
  }
  return deal;
}

const LEAD_FIELDS = ['title', 'owner_id', 'label_ids', 'was_seen', 'is_archived', 'expected_close_date', 'value'];

function changeLead(store: EmulatorStore, lead: Record_, b: Record_, userId: number, source: 'api' | 'app') {
  const changes = Object.fromEntries(Object.entries(b).filter(([k]) => LEAD_FIELDS.includes(k)));
  if (changes.title !== undefined && (typeof changes.title !== 'string' || !changes.title.trim())) {
    throw bad('Title must be given');
  }
  const previous = apply(lead, changes);
  if (Object.keys(previous).length) {
    lead.update_time = nowV2();
    announce(store, 'lead', lead, previous, userId, source);
  }
  return lead;
}

const userOf = (v: unknown) => {
  if (v === undefined) return PIPEDRIVE_SEED.users[0].id;
  const user = PIPEDRIVE_SEED.users.find((u) => u.id === Number(v));
  if (!user) throw bad('User not found');
  return user.id;
};

export function registerWebhookRoutes(api: Api, app: FastifyInstance): void {
  const { store, v1, v2 } = api;
  v1('GET', '/webhooks', async () => ok(store.webhooks));
  v1('POST', '/webhooks', async (req, reply) => {
    const b = bodyOf(req);
    const errors: Record<string, string> = {};
    if (typeof b.subscription_url !== 'string' || !/^https?:\/\//.test(b.subscription_url)) {
      errors.subscription_url = 'subscription_url must be a valid URL';
    }
    if (!WEBHOOK_ACTIONS.has(String(b.event_action))) errors.event_action = 'Invalid event_action';
    if (!WEBHOOK_OBJECTS.has(String(b.event_object))) errors.event_object = 'Invalid event_object';
    if (b.version !== undefined && b.version !== '1.0' && b.version !== '2.0') errors.version = 'Invalid version';
    if (Object.keys(errors).length) {
      return reply.code(400).send({ success: false, error: Object.values(errors).join('; '), errors });
    }
    if (store.webhooks.length >= 40) throw bad('Webhooks limit reached (40)');
    const hook: Row = {
      id: ++store.seq.webhook,
      company_id: COMPANY_ID,
      owner_id: PIPEDRIVE_SEED.users[0].id,
      user_id: PIPEDRIVE_SEED.users[0].id,
      event_action: b.event_action,
      event_object: b.event_object,
      subscription_url: b.subscription_url,
      name: b.name ?? null,
      version: b.version ?? '2.0',
      is_active: 1,
      add_time: nowV1(),
      type: 'general',
      http_auth_user: typeof b.http_auth_user === 'string' ? b.http_auth_user : null,
      http_auth_password: typeof b.http_auth_password === 'string' ? b.http_auth_password : null,
    };
    store.webhooks.push(hook);
    return reply.code(201).send(ok(hook));
  });
  v1('DELETE', '/webhooks/:id', async (req) => {
    const i = store.webhooks.findIndex((w) => w.id === idParam(req));
    if (i < 0) throw notFound('Webhook');
    store.webhooks.splice(i, 1);
    return ok({ id: idParam(req) });
  });

  // Changes through the API are the token's user's (the emulator's first user).
  v2('PATCH', '/deals/:id', async (req) => {
    const deal = store.deals.find((d) => d.id === idParam(req));
    if (!deal) throw notFound('Deal');
    const body = bodyOf(req);
    // UpdateDealRequest has AddDealRequest's keys (title optional).
    onlyParams(body, ADD_DEAL_PARAMS);
    return ok(changeDeal(store, deal, body, PIPEDRIVE_SEED.users[0].id, 'api'));
  });
  v1('PATCH', '/leads/:id', async (req) => {
    const lead = store.leads.find((l) => l.id === (req.params as { id: string }).id);
    if (!lead) throw notFound('Lead');
    return ok(changeLead(store, lead, bodyOf(req), PIPEDRIVE_SEED.users[0].id, 'api'));
  });

  // A user works the record in Pipedrive's app: { user_id?, …fields } (errors: the app's error handler).
  const asUser = (req: { body: unknown }) => {
    const { user_id: user, ...fields } = (req.body ?? {}) as Record_;
    return { userId: userOf(user), fields };
  };
  app.post('/__emulator/deals/:id/change', async (req) => {
    const deal = store.deals.find((d) => d.id === idParam(req));
    if (!deal) throw notFound('Deal');
    const { userId, fields } = asUser(req);
    return ok(changeDeal(store, deal, fields, userId, 'app'));
  });
  app.post('/__emulator/leads/:id/change', async (req) => {
    const lead = store.leads.find((l) => l.id === (req.params as { id: string }).id);
    if (!lead) throw notFound('Lead');
    const { userId, fields } = asUser(req);
    return ok(changeLead(store, lead, fields, userId, 'app'));
  });
}
