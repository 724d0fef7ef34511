// Google Ads' stand-in (EMULATORS=true, the end-to-end tests): it plays the lead form's webhook
// integration, which has no API of its own to emulate: Google POSTs a WebhookLead JSON to the
// address pasted into the form, with the key pasted beside it. Control API under /__emulator:
//   POST /__emulator/leads {webhookUrl, key, test?, leadId?, times?, columns?|name?, phone?, email?, city?, questions?}
//        sends one lead (a `leadId` again is Google's retry; `test` is the form's "Send test data",
//        with Google's test values) `times` times and answers what our receiver said each time;
//   GET  /__emulator/state, POST /__emulator/reset, /__emulator/fault, /__emulator/latency.
// A demo install's emulator sends only to the app's own public origin (`allowedOrigin`).
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { createEmulatorKit, listenEmulator, registerControlRoutes } from '../kit/emulator-kit';

export interface SentLead {
  webhookUrl: string;
  body: Record<string, unknown>;
  /** Our receiver's answer each time it was sent (0: no answer). */
  answers: { status: number; body: unknown }[];
}

export interface GoogleAdsEmulator {
  url: string;
  sent: SentLead[];
  send(input: LeadInput): Promise<SentLead>;
  close(): Promise<void>;
}

export interface LeadInput {
  webhookUrl: string;
  key: string;
  test?: boolean;
  leadId?: string;
  times?: number;
  /** The form's columns as Google sends them; else made of name, phone, email, city and questions. */
  columns?: { column_id?: string; column_name?: string; string_value?: string }[];
  name?: string;
  phone?: string;
  email?: string;
  city?: string;
  questions?: { question: string; answer: string }[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
/** An int64 id as Google's JSON carries it (a number of 11 digits here). */
const anId = () => 1e10 + Math.floor(Math.random() * 9e10);

/** The columns of a lead: Google's test values for a test lead (assumed: docs/connectors/googleads.md). */
function columnsOf(input: LeadInput): NonNullable<LeadInput['columns']> {
  if (input.columns) return input.columns;
  const c: NonNullable<LeadInput['columns']> = [];
  const add = (column_id: string, string_value: string | undefined, column_name: string) => {
    if (string_value) c.push({ column_id, column_name, string_value });
  };
  add('FULL_NAME', input.name ?? (input.test ? 'FirstName LastName' : undefined), 'Full Name');
  add('PHONE_NUMBER', input.phone ?? (input.test ? '+16505550123' : undefined), 'User Phone');
  add('EMAIL', input.email ?? (input.test ? 'test@example.com' : undefined), 'User Email');
  add('CITY', input.city, 'City');
  for (const [i, q] of (input.questions ?? []).entries()) {
    c.push({ column_id: `QUESTION_${i + 1}`, column_name: q.question, string_value: q.answer });
  }
  return c;
}

export function leadBody(input: LeadInput): Record<string, unknown> {
  return {
    lead_id: input.leadId ?? `TeSter-${randomUUID()}`,
    user_column_data: columnsOf(input),
    api_version: '1.0',
    form_id: anId(),
    campaign_id: anId(),
    adgroup_id: anId(),
    creative_id: anId(),
    google_key: input.key,
    is_test: input.test === true,
    gcl_id: input.test ? 'TeSter-gclid' : `Cj0KCQ${randomUUID().replace(/-/g, '')}`,
    lead_submit_time: new Date().toISOString(),
  };
}

async function post(url: string, body: unknown): Promise<{ status: number; body: unknown }> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'Google-Ads-Lead-Webhook (emulated)' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const raw = await res.text();
    let parsed: unknown = raw;
    try {
      parsed = raw ? JSON.parse(raw) : undefined;
    } catch {
      // kept as text
    }
    return { status: res.status, body: parsed };
  } catch {
    return { status: 0, body: undefined };
  }
}

export async function startGoogleAdsEmulator(
  options: { port?: number; allowedOrigin?: string } = {},
): Promise<GoogleAdsEmulator> {
  const app = Fastify({ logger: false, forceCloseConnections: true, bodyLimit: 1024 * 1024 });
  const kit = createEmulatorKit<{ times?: number }, unknown>({ maxLog: 1000 });
  const sent: SentLead[] = [];

  const allowed = (url: string) => {
    try {
      const u = new URL(url);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') return false;
      return !options.allowedOrigin || u.origin === new URL(options.allowedOrigin).origin;
    } catch {
      return false;
    }
  };

  const emulator: GoogleAdsEmulator = {
    url: '',
    sent,
    async send(input) {
      const body = leadBody(input);
      const times = Math.min(Math.max(input.times ?? 1, 1), 5);
      const shot: SentLead = { webhookUrl: input.webhookUrl, body, answers: [] };
      for (let i = 0; i < times; i++) {
        await kit.delay();
        shot.answers.push(await post(input.webhookUrl, body));
      }
      sent.push(shot);
      if (sent.length > 1000) sent.shift();
      return shot;
    },
    close: async () => {
      kit.clearTimers();
      await app.close();
    },
  };

  registerControlRoutes(app, kit, { reset: () => sent.splice(0) });
  app.get('/__emulator/state', async () => ({ sent }));
  app.post('/__emulator/leads', async (req, reply) => {
    const b = isRecord(req.body) ? req.body : {};
    const webhookUrl = text(b.webhookUrl);
    const key = text(b.key);
    if (!webhookUrl || !allowed(webhookUrl) || key === undefined)
      return reply.code(400).send({ message: 'webhookUrl (of this app) and key are required' });
    const questions = Array.isArray(b.questions)
      ? b.questions.flatMap((q) =>
          isRecord(q) && text(q.question) && text(q.answer)
            ? [{ question: q.question as string, answer: q.answer as string }]
            : [],
        )
      : undefined;
    const input: LeadInput = {
      webhookUrl,
      key,
      test: b.test === true,
      leadId: text(b.leadId),
      times: typeof b.times === 'number' ? b.times : 1,
      name: text(b.name),
      phone: text(b.phone),
      email: text(b.email),
      city: text(b.city),
      ...(Array.isArray(b.columns) ? { columns: b.columns as LeadInput['columns'] } : {}),
      ...(questions ? { questions } : {}),
    };
    return reply.code(201).send(await emulator.send(input));
  });

  const { url } = await listenEmulator(app, { port: options.port });
  emulator.url = url;
  return emulator;
}
