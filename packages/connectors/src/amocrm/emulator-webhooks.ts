// Webhooks in the amoCRM emulator: subscriptions (POST, GET, DELETE /api/v4/webhooks; one per
// destination, a repeat POST updates it, as amoCRM documents), moving a lead to another status
// (PATCH /api/v4/leads and /api/v4/leads/{id}, or /__emulator/leads/{id}/status as a manager in the
// browser would), and the `status_lead` webhook posted to each subscriber: form-encoded, no
// signature, User-Agent amoCRM-WebHook-client/1.0, fire and forget with amoCRM's 2-second wait.
import type { FastifyInstance } from 'fastify';
import { hal, Invalid, problem, type ValidationError } from './emulator-gate';
import { AMO_SEED, type AmoRuntime, type EmulatedAmoLead, type EmulatedAmoWebhook } from './emulator-state';
import { checkUser, placement } from './emulator-validation';
import { AMO_STATUS_EVENT, amoStatusWebhookForm } from './stage-watch';

/** amoCRM waits this long for a subscriber's answer (docs: "не более 2 секунд"). */
export const AMO_WEBHOOK_TIMEOUT_MS = 2_000;
const MAX_WEBHOOKS = 100;
/** Sent webhooks kept for tests and the demo's state page (the demo runs for days). */
const MAX_SENT = 1000;
const EVENTS = new Set([
  'add_lead',
  'update_lead',
  'delete_lead',
  'restore_lead',
  'status_lead',
  'responsible_lead',
  'note_lead',
  'add_contact',
  'update_contact',
  'delete_contact',
  'add_company',
  'update_company',
  'add_task',
  'update_task',
]);

const nowS = () => Math.floor(Date.now() / 1000);

/** Posts the status change to every subscriber of status_lead; never waits for them. */
function announceStatus(rt: AmoRuntime, lead: EmulatedAmoLead, oldStatusId: number, userId: number): void {
  const body = amoStatusWebhookForm(
    [
      {
        id: String(lead.id),
        statusId: String(lead.status_id),
        oldStatusId: String(oldStatusId),
        pipelineId: String(lead.pipeline_id),
        modifiedUserId: String(userId),
        lastModified: nowS(),
      },
    ],
    { subdomain: AMO_SEED.account.subdomain, id: AMO_SEED.account.id },
  );
  const record = (entry: (typeof rt.sent)[number]) => {
    rt.sent.push(entry);
    if (rt.sent.length > MAX_SENT) rt.sent.splice(0, rt.sent.length - MAX_SENT);
  };
  for (const hook of rt.webhooks) {
    if (hook.disabled || !hook.settings.includes(AMO_STATUS_EVENT)) continue;
    void fetch(hook.destination, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'amoCRM-WebHook-client/1.0' },
      body,
      signal: AbortSignal.timeout(rt.webhookTimeoutMs),
    })
      .then(async (res) => {
        await res.arrayBuffer().catch(() => undefined);
        record({ destination: hook.destination, body, status: res.status });
      })
      .catch(() => record({ destination: hook.destination, body, status: 0 }));
  }
}

/** Moves a lead (a PATCH item or a manager's move); announces it when the status changed. */
function moveLead(rt: AmoRuntime, item: Record<string, unknown>, requestId: string, userId: number) {
  const lead = rt.leads.find((l) => l.id === item.id);
  if (!lead) throw new Invalid(requestId, [{ code: 'NotFound', path: 'id', detail: 'Lead not found.' }]);
  const errors: ValidationError[] = [];
  const at =
    item.status_id === undefined && item.pipeline_id === undefined
      ? { pipeline_id: lead.pipeline_id, status_id: lead.status_id }
      : placement({ pipeline_id: item.pipeline_id ?? lead.pipeline_id, status_id: item.status_id }, errors);
  if (!at || errors.length) throw new Invalid(requestId, errors);
  const old = lead.status_id;
  Object.assign(lead, at);
  if (typeof item.name === 'string') lead.name = item.name;
  if (old !== lead.status_id) announceStatus(rt, lead, old, userId);
  return { id: lead.id, updated_at: nowS(), request_id: requestId };
}

const view = (w: EmulatedAmoWebhook) => ({ ...w, account_id: AMO_SEED.account.id, created_by: AMO_SEED.users[0].id });

export function registerWebhookRoutes(app: FastifyInstance, rt: AmoRuntime): void {
  app.get('/api/v4/webhooks', async (req) => {
    const filter = (req.query as Record<string, string | undefined>)['filter[destination]'];
    const list = rt.webhooks.filter((w) => !filter || w.destination === filter);
    return { _total_items: list.length, ...hal(rt, 'webhooks', list.map(view), '/api/v4/webhooks') };
  });

  app.post('/api/v4/webhooks', async (req, reply) => {
    const b = (req.body ?? {}) as { destination?: unknown; settings?: unknown; sort?: unknown };
    const errors: ValidationError[] = [];
    if (typeof b.destination !== 'string' || !/^https?:\/\/[^\s]+$/.test(b.destination)) {
      errors.push({ code: 'InvalidUrl', path: 'destination', detail: 'This value is not a valid URL.' });
    }
    const settings = Array.isArray(b.settings) ? b.settings : [];
    if (!settings.length || settings.some((s) => typeof s !== 'string' || !EVENTS.has(s))) {
      errors.push({
        code: 'NotSupportedChoice',
        path: 'settings',
        detail: 'The value you selected is not a valid choice.',
      });
    }
    if (errors.length) throw new Invalid('0', errors);
    const destination = b.destination as string;
    const existing = rt.webhooks.find((w) => w.destination === destination);
    if (existing) {
      Object.assign(existing, { settings: [...settings], disabled: false, updated_at: nowS() });
      return reply.code(201).send(view(existing));
    }
    if (rt.webhooks.length >= MAX_WEBHOOKS) {
      return reply
        .code(400)
        .type('application/problem+json')
        .send(problem(400, 'Bad Request', `No more than ${MAX_WEBHOOKS} webhooks per account`));
    }
    const hook: EmulatedAmoWebhook = {
      id: 1_050_000 + rt.nextId++,
      destination,
      settings: [...(settings as string[])],
      sort: typeof b.sort === 'number' ? b.sort : rt.webhooks.length + 1,
      disabled: false,
      created_at: nowS(),
      updated_at: nowS(),
    };
    rt.webhooks.push(hook);
    return reply.code(201).send(view(hook));
  });

  app.delete('/api/v4/webhooks', async (req, reply) => {
    const destination = (req.body as { destination?: unknown } | null)?.destination;
    if (typeof destination !== 'string') {
      return reply
        .code(400)
        .type('application/problem+json')
        .send(problem(400, 'Bad Request', 'destination is required'));
    }
    const i = rt.webhooks.findIndex((w) => w.destination === destination);
    if (i < 0) {
      return reply
        .code(404)
        .type('application/problem+json')
        .send(problem(404, 'Not Found', 'Webhook not found'));
    }
    rt.webhooks.splice(i, 1);
    return reply.code(204).send();
  });

  // Through the API the change is the token's user's (the emulator's first user).
  app.patch('/api/v4/leads', async (req) => {
    if (!Array.isArray(req.body) || !req.body.length) {
      throw new Invalid('0', [{ code: 'InvalidType', path: '', detail: 'This value should be a non-empty array.' }]);
    }
    const items = req.body as Record<string, unknown>[];
    const done = items.map((item, i) => moveLead(rt, item, String(item.request_id ?? i), AMO_SEED.users[0].id));
    return hal(rt, 'leads', done, '/api/v4/leads');
  });
  app.patch('/api/v4/leads/:id', async (req) => {
    const item = { ...((req.body ?? {}) as Record<string, unknown>), id: Number((req.params as { id: string }).id) };
    const { id, updated_at } = moveLead(rt, item, '0', AMO_SEED.users[0].id);
    return { id, updated_at, _links: { self: { href: `${rt.origin()}/api/v4/leads/${id}` } } };
  });

  // A manager drags the lead to another status in amoCRM's browser screen.
  app.post('/__emulator/leads/:id/status', async (req, reply) => {
    const b = (req.body ?? {}) as { status_id?: unknown; pipeline_id?: unknown; user_id?: unknown };
    const errors: ValidationError[] = [];
    const user = checkUser(b.user_id, 'user_id', errors) ?? AMO_SEED.users[0].id;
    if (errors.length) return reply.code(400).send({ errors });
    try {
      const item = {
        id: Number((req.params as { id: string }).id),
        status_id: b.status_id,
        pipeline_id: b.pipeline_id,
      };
      return moveLead(rt, item, '0', user);
    } catch (error) {
      if (error instanceof Invalid) return reply.code(400).send({ errors: error.errors });
      throw error;
    }
  });
}
