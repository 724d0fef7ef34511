// Webhook subscriptions in the Pipedrive emulator (v1): list, create (Pipedrive's field errors, a
// limit of 40) and delete. The emulator never calls them; tests read what was subscribed.
import { type Api, bad, bodyOf, idParam, notFound, nowV1, ok } from './emulator-api';
import { PIPEDRIVE_SEED, type Row } from './emulator-state';

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

export function registerWebhookRoutes(api: Api): void {
  const { store, v1 } = api;
  v1('GET', '/webhooks', async () => ok(store.webhooks));
  v1('POST', '/webhooks', async (req, reply) => {
    const b = bodyOf(req);
    const errors: Record<string, string> = {};
    if (typeof b.subscription_url !== 'string' || !/^https?:\/\//.test(b.subscription_url)) {
      errors.subscription_url = 'subscription_url must be a valid URL';
    }
    if (!WEBHOOK_ACTIONS.has(String(b.event_action))) errors.event_action = 'Invalid event_action';
    if (!WEBHOOK_OBJECTS.has(String(b.event_object))) errors.event_object = 'Invalid event_object';
    if (Object.keys(errors).length) {
      return reply.code(400).send({ success: false, error: Object.values(errors).join('; '), errors });
    }
    if (store.webhooks.length >= 40) throw bad('Webhooks limit reached (40)');
    const hook: Row = {
      id: ++store.seq.webhook,
      company_id: 1,
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
}
