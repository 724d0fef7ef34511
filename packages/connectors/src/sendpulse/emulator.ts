// A stateful fake of the SendPulse API (external-apis 8.5) for our tests, the demo and the end-to-end
// suite: client-credentials tokens (3600 s, 401 invalid_client), a Bearer check, /user/info, chatbots
// (bots, contacts by variable, get contact, sendText with success:false inside HTTP 200), the CRM
// (contacts get-list/create/phones/emails/external, pipelines, deals), a 10 requests/s limiter (429),
// faults, latency, a fake clock for token expiry, reset and a request log under /__emulator.
import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { createEmulatorKit, listenEmulator, registerControlRoutes, slidingWindow } from '../kit/emulator-kit';

export interface EmulatedSendpulseRequest {
  method: string;
  path: string;
  authorization?: string;
  body: unknown;
  status: number;
  receivedAt: string;
}

export interface EmulatedBot {
  id: string;
  name: string;
  /** Our channel name: telegram, whatsapp, instagram, messenger, viber, livechat. */
  channel: string;
  username?: string;
}

export interface EmulatedChatContact {
  id: string;
  botId: string;
  channel: string;
  firstName?: string;
  lastName?: string;
  username?: string;
  variables: Record<string, string>;
  lastActivityAt?: string;
}

export interface EmulatedMessage {
  channel: string;
  botId: string;
  contactId: string;
  text: string;
  sentAt: string;
}

export interface EmulatedCrmContact {
  id: number;
  firstName?: string;
  lastName?: string;
  externalContactId: string | null;
  phones: { id: number; phone: string; isMain: boolean }[];
  emails: { id: number; email: string; isMain: boolean }[];
  createdAt: string;
}

export interface EmulatedDeal {
  id: number;
  pipelineId: number;
  stepId: number;
  name: string;
  contact: number[];
  createdAt: string;
}

export interface SendpulseFault {
  status: number;
  retryAfter?: number;
  times?: number;
  body?: unknown;
  /** Only requests whose path starts with this (e.g. '/crm/'); default every API request. */
  path?: string;
}

export interface SendpulseSeed {
  clients: { id: string; secret: string }[];
  bots: EmulatedBot[];
  contacts: EmulatedChatContact[];
  pipelines: { id: number; name: string; steps: { id: number; name: string }[] }[];
}

export const SENDPULSE_CLIENT = { id: 'sp-client-id-7d3a', secret: 'sp-secret-5b8e2c91f04a' } as const;
export const SENDPULSE_BOT = { id: '64f0c1a2b3d4e5f601234567', name: 'LeadRelay Shop', channel: 'telegram' } as const;
export const SENDPULSE_WHATSAPP_BOT = {
  id: '64f0c1a2b3d4e5f609876543',
  name: 'LeadRelay WhatsApp',
  channel: 'whatsapp',
} as const;

/** Two Telegram contacts whose `phone` variable matches people in the Pipedrive emulator's tests, one by e-mail only. */
export function defaultSendpulseSeed(): SendpulseSeed {
  return {
    clients: [{ ...SENDPULSE_CLIENT }],
    bots: [{ ...SENDPULSE_BOT, username: 'leadrelay_shop_bot' }, { ...SENDPULSE_WHATSAPP_BOT }],
    contacts: [
      {
        id: 'tg-contact-olena',
        botId: SENDPULSE_BOT.id,
        channel: 'telegram',
        firstName: 'Olena',
        lastName: 'Kovalenko',
        username: 'olena_k',
        variables: { phone: '+380501234567' },
        lastActivityAt: '2026-11-20T09:15:00Z',
      },
      {
        id: 'tg-contact-taras',
        botId: SENDPULSE_BOT.id,
        channel: 'telegram',
        firstName: 'Taras',
        username: 'taras_sh',
        variables: { phone: '380671112233' },
        lastActivityAt: '2026-11-18T16:40:00Z',
      },
      {
        id: 'tg-contact-iryna',
        botId: SENDPULSE_BOT.id,
        channel: 'telegram',
        firstName: 'Iryna',
        variables: { email: 'iryna@example.com' },
      },
      {
        id: 'wa-contact-olena',
        botId: SENDPULSE_WHATSAPP_BOT.id,
        channel: 'whatsapp',
        firstName: 'Olena',
        variables: { phone: '380501234567' },
      },
    ],
    pipelines: [
      {
        id: 101,
        name: 'Sales',
        steps: [
          { id: 1001, name: 'New' },
          { id: 1002, name: 'In progress' },
        ],
      },
    ],
  };
}

export interface SendpulseEmulatorOptions {
  port?: number;
  host?: string;
  seed?: SendpulseSeed;
  /** Requests per second per client before 429 (SendPulse's hard ceiling is 10). */
  rateLimitPerSecond?: number;
  maxLog?: number;
}

export interface SendpulseEmulator {
  url: string;
  port: number;
  requests: EmulatedSendpulseRequest[];
  /** Messages sendText delivered, in order. */
  messages: EmulatedMessage[];
  chatContacts: EmulatedChatContact[];
  crmContacts: EmulatedCrmContact[];
  deals: EmulatedDeal[];
  /** Access tokens issued since the last reset. */
  tokensIssued(): number;
  /** Makes every issued token unknown (as if it expired). */
  revokeTokens(): void;
  /** Moves the fake clock (token expiry) forward. */
  advance(ms: number): void;
  setLatency(ms: number): void;
  setFault(fault: SendpulseFault | null): void;
  setRateLimit(perSecond: number): void;
  reset(): void;
  close(): Promise<void>;
}

const CHANNEL_PREFIXES: Record<string, string> = {
  telegram: 'telegram',
  whatsapp: 'whatsapp',
  instagram: 'instagram',
  messenger: 'messenger',
  'viber/chatbots': 'viber',
  'live-chat': 'livechat',
};

const digits = (s: string) => s.replace(/\D+/g, '');

export async function startSendpulseEmulator(options: SendpulseEmulatorOptions = {}): Promise<SendpulseEmulator> {
  const seed = () => structuredClone(options.seed ?? defaultSendpulseSeed());
  let state = seed();
  const app = Fastify({ logger: false, forceCloseConnections: true });
  const kit = createEmulatorKit<SendpulseFault, EmulatedSendpulseRequest>({ maxLog: options.maxLog ?? 10_000 });
  const messages: EmulatedMessage[] = [];
  const crmContacts: EmulatedCrmContact[] = [];
  const deals: EmulatedDeal[] = [];
  const chatContacts: EmulatedChatContact[] = state.contacts;
  const tokens = new Map<string, { clientId: string; expiresAt: number }>();
  const limiter = slidingWindow(1000);
  let issued = 0;
  let clockOffset = 0;
  let rateLimit = options.rateLimitPerSecond ?? 10;
  let nextId = 1;
  const now = () => Date.now() + clockOffset;

  const emulator: SendpulseEmulator = {
    url: '',
    port: 0,
    requests: kit.requests,
    messages,
    chatContacts,
    crmContacts,
    deals,
    tokensIssued: () => issued,
    revokeTokens: () => tokens.clear(),
    advance(ms) {
      clockOffset += ms;
    },
    setLatency: kit.setLatency,
    setFault: kit.setFault,
    setRateLimit(perSecond) {
      rateLimit = perSecond;
    },
    reset() {
      state = seed();
      chatContacts.splice(0, chatContacts.length, ...state.contacts);
      kit.resetSwitches();
      messages.length = 0;
      crmContacts.length = 0;
      deals.length = 0;
      tokens.clear();
      limiter.clear();
      issued = 0;
      nextId = 1;
      clockOffset = 0;
      rateLimit = options.rateLimitPerSecond ?? 10;
    },
    async close() {
      kit.clearTimers();
      await app.close();
    },
  };

  // ---- Control API ----
  app.get('/__emulator/log', async () => ({ requests: kit.requests, messages, crmContacts, deals }));
  registerControlRoutes(app, kit, { reset: () => emulator.reset() });
  app.post('/__emulator/advance', async (req) => {
    emulator.advance(Number((req.body as { ms?: number } | null)?.ms ?? 0));
    return { ok: true };
  });

  // ---- Every API request: log, latency, faults, rate limit, Bearer ----
  const entryOf = (req: FastifyRequest) => (req as unknown as { spEntry?: EmulatedSendpulseRequest }).spEntry;
  app.addHook('onRequest', async (req) => {
    if (req.url.startsWith('/__emulator')) return;
    (req as unknown as { spEntry?: EmulatedSendpulseRequest }).spEntry = kit.log({
      method: req.method,
      path: req.url,
      authorization: req.headers.authorization,
      body: undefined,
      status: 200,
      receivedAt: new Date().toISOString(),
    });
  });
  app.addHook('preHandler', async (req, reply) => {
    const entry = entryOf(req);
    if (!entry) return;
    entry.body = req.body;
    await kit.delay();
    const f = kit.takeFault((fault) => !fault.path || req.url.startsWith(fault.path));
    if (f) {
      if (f.retryAfter !== undefined) reply.header('retry-after', String(f.retryAfter));
      return fail(reply, f.status, f.body ?? { error_code: f.status, message: 'emulated fault' });
    }
    if (req.url.startsWith('/oauth/')) return;
    const token = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const known = token ? tokens.get(token) : undefined;
    if (!known || known.expiresAt <= now()) {
      return fail(reply, 401, { error: 'invalid_token', message: 'The access token provided is invalid or expired' });
    }
    // SendPulse's hard ceiling: 10 requests per second (error 2020202020, no rate-limit headers).
    if (!limiter.hit(known.clientId, rateLimit).isAdmitted) {
      return fail(reply, 429, { error_code: 2020202020, message: 'Too many requests' });
    }
  });
  app.addHook('onSend', async (req, reply, payload) => {
    const entry = entryOf(req);
    if (entry) entry.status = reply.statusCode;
    return payload;
  });
  function fail(reply: FastifyReply, status: number, body: unknown) {
    return reply.code(status).send(body);
  }

  // ---- Auth ----
  app.post('/oauth/access_token', async (req, reply) => {
    const b = (req.body ?? {}) as { grant_type?: string; client_id?: string; client_secret?: string };
    const client = state.clients.find((c) => c.id === b.client_id && c.secret === b.client_secret);
    if (b.grant_type !== 'client_credentials' || !client) {
      return fail(reply, 401, {
        error: 'invalid_client',
        error_description: 'Client authentication failed',
        message: 'Client authentication failed',
      });
    }
    const token = randomBytes(24).toString('hex');
    tokens.set(token, { clientId: client.id, expiresAt: now() + 3600_000 });
    issued += 1;
    return { access_token: token, token_type: 'Bearer', expires_in: 3600 };
  });
  app.get('/user/info', async () => ({ id: 7000001, name: 'Emulated SendPulse user', email: 'owner@example.com' }));

  // ---- Chatbots ----
  const botView = (b: EmulatedBot) => ({
    id: b.id,
    name: b.name,
    channel: b.channel.toUpperCase(),
    channel_data: { name: b.name, ...(b.username ? { username: b.username } : {}) },
    inbox: { total: 0, unread: 0 },
    status: 3,
    created_at: '2026-01-10T10:00:00Z',
  });
  const contactView = (c: EmulatedChatContact) => ({
    id: c.id,
    bot_id: c.botId,
    status: 1,
    channel_data: {
      ...(c.username ? { username: c.username } : {}),
      ...(c.firstName ? { first_name: c.firstName } : {}),
      ...(c.lastName ? { last_name: c.lastName } : {}),
      name: [c.firstName, c.lastName].filter(Boolean).join(' ') || undefined,
    },
    tags: [],
    variables: c.variables,
    is_chat_opened: false,
    ...(c.lastActivityAt ? { last_activity_at: c.lastActivityAt } : {}),
    created_at: '2026-02-01T12:00:00Z',
  });
  app.get('/chatbots/bots', async () => ({ success: true, data: state.bots.map(botView) }));

  for (const [prefix, channel] of Object.entries(CHANNEL_PREFIXES)) {
    app.get(`/${prefix}/bots`, async () => ({
      success: true,
      data: state.bots.filter((b) => b.channel === channel).map(botView),
    }));
    app.get(`/${prefix}/contacts/getByVariable`, async (req, reply) => {
      const q = req.query as { bot_id?: string; variable_name?: string; variable_value?: string };
      if (!q.bot_id || !q.variable_name || q.variable_value === undefined) {
        return fail(reply, 422, {
          success: false,
          errors: { bot_id: ['bot_id, variable_name and variable_value are required'] },
        });
      }
      const data = chatContacts.filter(
        (c) => c.channel === channel && c.botId === q.bot_id && c.variables[q.variable_name!] === q.variable_value,
      );
      return { success: true, data: data.map(contactView) };
    });
    app.get(`/${prefix}/contacts/get`, async (req) => {
      const id = (req.query as { id?: string }).id;
      const c = chatContacts.find((x) => x.channel === channel && x.id === id);
      return c ? { success: true, data: contactView(c) } : { success: false, errors: { id: ['Contact not found'] } };
    });
    app.post(`/${prefix}/contacts/sendText`, async (req, reply) => {
      const b = (req.body ?? {}) as { contact_id?: string; text?: unknown };
      if (typeof b.text !== 'string' || !b.text.trim()) {
        return fail(reply, 422, { success: false, errors: { text: ['The text field is required'] } });
      }
      const c = chatContacts.find((x) => x.channel === channel && x.id === b.contact_id);
      // As SendPulse does: an unknown contact is an error inside HTTP 200.
      if (!c) return { success: false, errors: { contact_id: ['Contact not found'] } };
      messages.push({ channel, botId: c.botId, contactId: c.id, text: b.text, sentAt: new Date().toISOString() });
      c.lastActivityAt = new Date().toISOString();
      return { success: true };
    });
  }

  // ---- CRM ----
  const crmView = (c: EmulatedCrmContact) => ({ ...c, userId: 7000001, sourceType: 'api', tags: [], attributes: [] });
  app.post('/crm/v1/contacts/get-list', async (req) => {
    const b = (req.body ?? {}) as { limit?: number; offset?: number; phone?: string; email?: string };
    let list = crmContacts;
    if (b.phone) list = list.filter((c) => c.phones.some((p) => digits(p.phone) === digits(b.phone!)));
    if (b.email) list = list.filter((c) => c.emails.some((e) => e.email.toLowerCase() === b.email!.toLowerCase()));
    const offset = b.offset ?? 0;
    const limit = Math.min(Math.max(b.limit ?? 20, 1), 100);
    return { success: true, data: { list: list.slice(offset, offset + limit).map(crmView), total: list.length } };
  });
  app.get('/crm/v1/contacts/external/:externalId', async (req, reply) => {
    const { externalId } = req.params as { externalId: string };
    const c = crmContacts.find((x) => x.externalContactId === externalId);
    return c ? { success: true, data: crmView(c) } : fail(reply, 404, { success: false, message: 'Contact not found' });
  });
  app.post('/crm/v1/contacts/create', async (req, reply) => {
    const b = (req.body ?? {}) as { firstName?: string; lastName?: string; externalContactId?: string };
    if (!b.firstName?.trim() && !b.lastName?.trim()) {
      return fail(reply, 422, { success: false, errors: { firstName: ['firstName or lastName is required'] } });
    }
    const contact: EmulatedCrmContact = {
      id: nextId++,
      firstName: b.firstName,
      lastName: b.lastName,
      externalContactId: b.externalContactId ?? null,
      phones: [],
      emails: [],
      createdAt: new Date().toISOString(),
    };
    crmContacts.push(contact);
    return reply.code(201).send({ success: true, data: crmView(contact) });
  });
  app.post('/crm/v1/contacts/:id/phones', async (req, reply) => {
    const c = crmContacts.find((x) => x.id === Number((req.params as { id: string }).id));
    const b = (req.body ?? {}) as { phone?: string; isMain?: boolean };
    if (!c) return fail(reply, 404, { success: false, message: 'Contact not found' });
    if (!b.phone || digits(b.phone).length < 5)
      return fail(reply, 422, { success: false, errors: { phone: ['invalid'] } });
    const phone = { id: nextId++, phone: b.phone, isMain: b.isMain ?? c.phones.length === 0 };
    c.phones.push(phone);
    return { success: true, data: phone };
  });
  app.post('/crm/v1/contacts/:id/emails', async (req, reply) => {
    const c = crmContacts.find((x) => x.id === Number((req.params as { id: string }).id));
    const b = (req.body ?? {}) as { email?: string; isMain?: boolean };
    if (!c) return fail(reply, 404, { success: false, message: 'Contact not found' });
    if (!b.email?.includes('@')) return fail(reply, 422, { success: false, errors: { email: ['invalid'] } });
    const email = { id: nextId++, email: b.email, isMain: b.isMain ?? c.emails.length === 0 };
    c.emails.push(email);
    return { success: true, data: email };
  });
  app.get('/crm/v1/pipelines', async () => ({ success: true, data: state.pipelines }));
  app.get('/crm/v1/pipelines/:id/steps', async (req, reply) => {
    const p = state.pipelines.find((x) => x.id === Number((req.params as { id: string }).id));
    return p ? { success: true, data: p.steps } : fail(reply, 404, { success: false, message: 'Pipeline not found' });
  });
  app.post('/crm/v1/deals', async (req, reply) => {
    const b = (req.body ?? {}) as { pipelineId?: number; stepId?: number; name?: string; contact?: number[] };
    const pipeline = state.pipelines.find((p) => p.id === b.pipelineId);
    if (!pipeline?.steps.some((s) => s.id === b.stepId) || !b.name?.trim()) {
      return fail(reply, 422, {
        success: false,
        errors: { pipelineId: ['pipelineId, stepId and name must be valid'] },
      });
    }
    const contact = (b.contact ?? []).filter((id) => crmContacts.some((c) => c.id === id));
    const deal: EmulatedDeal = {
      id: nextId++,
      pipelineId: pipeline.id,
      stepId: b.stepId!,
      name: b.name.slice(0, 255),
      contact,
      createdAt: new Date().toISOString(),
    };
    deals.push(deal);
    return reply.code(201).send({ success: true, data: { ...deal, status: 'active', currency: 'UAH', price: 0 } });
  });

  const { port, url } = await listenEmulator(app, options);
  emulator.port = port;
  emulator.url = url;
  return emulator;
}
