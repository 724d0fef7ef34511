// A stateful fake of AlphaSMS's JSON API (external-apis 5; docs/connectors/alphasms.md) for our
// tests, the demo and the end-to-end suite. POST /api/json.php checks Content-Type and the `auth`
// key, and answers HTTP 200 like AlphaSMS: a refused key at the top ({"success":false,"error":
// "Access denied"}), a refused message in its item. It takes sms, viber and viber+sms (registered
// alpha-names and Viber senders only, 12-digit numbers, a balance that each part costs), balance
// and status; msg_ids increase; a message's status moves on with a clock (ACCEPTED → DELIVERED, a
// Viber one → READ). Control API under /__emulator: reset, fault (HTTP statuses, an error inside
// 200 at the top or in the items), latency, state, balance, advance (the clock), status (set one).
import { countSms } from '@leadrelay/shared';
import Fastify from 'fastify';
import { createEmulatorKit, listenEmulator, parseJson, registerControlRoutes } from '../kit/emulator-kit';

export interface AlphaFault {
  /** An HTTP status to answer with; 401 answers AlphaSMS's own refusal (200, "Access denied"). */
  status?: number;
  retryAfter?: number;
  times?: number;
  /** An error inside a 200 for the whole request ({"success":false,"error":…}). */
  error?: string;
  /** An error inside a 200 for every message item ({"success":false,"error":…,"data":{"id":…}}). */
  itemError?: string;
}

export interface EmulatedSms {
  msgId: number;
  /** The client's own id (echoed). */
  id: unknown;
  type: 'sms' | 'viber' | 'viber+sms';
  phone: number;
  signature: string;
  text: string;
  parts: number;
  status: string;
  /** Emulator clock (ms) when it was taken. */
  at: number;
  cost: number;
}

export interface EmulatedAlphaRequest {
  path: string;
  contentType?: string;
  body: unknown;
  status: number;
  receivedAt: string;
}

export interface AlphaEmulatorOptions {
  port?: number;
  host?: string;
  apiKey?: string;
  /** Registered alpha-names (SMS) and Viber senders. */
  senders?: string[];
  viberSenders?: string[];
  /** UAH; each part costs `pricePerPart`. */
  balance?: number;
  pricePerPart?: number;
  /** How long a message stays ACCEPTED before it is DELIVERED (and a Viber one READ after as long again). */
  statusDelayMs?: number;
}

export interface AlphaEmulator {
  url: string;
  port: number;
  apiKey: string;
  requests: EmulatedAlphaRequest[];
  messages: EmulatedSms[];
  balance(): number;
  setBalance(amount: number): void;
  /** Moves the status clock forward. */
  advance(ms: number): void;
  /** Sets one message's status (UNDELIVERABLE, EXPIRED …). */
  setStatus(msgId: number, status: string): void;
  setLatency(ms: number): void;
  setFault(fault: AlphaFault | null): void;
  reset(): void;
  close(): Promise<void>;
}

export const ALPHASMS_EMULATOR_KEY = 'alpha-emu-key-4c9e1b7d2a';
export const ALPHASMS_SENDERS = ['LeadRelay', 'SMSTest'];

export async function startAlphaSmsEmulator(options: AlphaEmulatorOptions = {}): Promise<AlphaEmulator> {
  const app = Fastify({ logger: false, forceCloseConnections: true });
  const kit = createEmulatorKit<AlphaFault, EmulatedAlphaRequest>({ maxLog: 10_000 });
  const apiKey = options.apiKey ?? ALPHASMS_EMULATOR_KEY;
  const senders = new Set(options.senders ?? ALPHASMS_SENDERS);
  const viberSenders = new Set(options.viberSenders ?? ALPHASMS_SENDERS);
  const startBalance = options.balance ?? 500;
  const price = options.pricePerPart ?? 1.35;
  const delay = options.statusDelayMs ?? 2_000;
  const messages: EmulatedSms[] = [];
  let money = startBalance;
  let clock = 0;
  let nextMsgId = 100_000_001;
  const now = () => Date.now() + clock;

  /** The status a message has now: set by hand, else by its age. */
  const statusOf = (m: EmulatedSms) => {
    if (m.status !== 'ACCEPTED') return m.status;
    const age = now() - m.at;
    if (age < delay) return 'ACCEPTED';
    return m.type !== 'sms' && age >= delay * 2 ? 'READ' : 'DELIVERED';
  };

  const send = (item: Record<string, unknown>) => {
    const type = item.type as EmulatedSms['type'];
    const viber = type !== 'sms';
    const smsPart = type !== 'viber';
    const phone = item.phone;
    const fail = (error: string) => ({ success: false, error, data: { id: item.id } });
    if (typeof phone !== 'number' && !(typeof phone === 'string' && /^\d+$/.test(phone))) {
      return fail('Invalid phone number');
    }
    if (!/^\d{11,15}$/.test(String(phone)) || (String(phone).startsWith('380') && String(phone).length !== 12)) {
      return fail('Invalid phone number');
    }
    if (viber && !viberSenders.has(String(item.viber_signature ?? ''))) return fail('Error in Viber alpha-name');
    if (smsPart && !senders.has(String(item.sms_signature ?? ''))) return fail('Error in Alpha-name');
    const text = String((smsPart ? item.sms_message : item.viber_message) ?? '');
    if (!text) return fail('Empty message');
    // Operators count parts by GSM 03.38 / UCS-2; the shared counter is that count.
    const parts = countSms(text).parts;
    const cost = Math.round(parts * price * 100) / 100;
    if (money < cost) return fail('Insufficient funds on balance');
    money = Math.round((money - cost) * 100) / 100;
    const message: EmulatedSms = {
      msgId: nextMsgId++,
      id: item.id,
      type,
      phone: Number(phone),
      signature: String((smsPart ? item.sms_signature : item.viber_signature) ?? ''),
      text,
      parts,
      status: 'ACCEPTED',
      at: now(),
      cost,
    };
    messages.push(message);
    return { success: true, data: { id: item.id, msg_id: message.msgId, data: 1, parts } };
  };

  const answer = (item: unknown, itemError?: string) => {
    if (!item || typeof item !== 'object') return { success: false, error: 'Invalid request' };
    const it = item as Record<string, unknown>;
    switch (it.type) {
      case 'sms':
      case 'viber':
      case 'viber+sms':
        return itemError ? { success: false, error: itemError, data: { id: it.id } } : send(it);
      case 'balance':
        return { success: true, data: { amount: money, currency: 'UAH' } };
      case 'status': {
        const m = messages.find((x) => String(x.msgId) === String(it.id));
        if (!m) return { success: false, error: 'Message not found', data: { id: it.id } };
        return { success: true, data: { id: m.msgId, type: m.type === 'sms' ? 'sms' : 'viber', status: statusOf(m) } };
      }
      default:
        return { success: false, error: 'Unknown request type', data: { id: it.id } };
    }
  };

  const emulator: AlphaEmulator = {
    url: '',
    port: 0,
    apiKey,
    requests: kit.requests,
    messages,
    balance: () => money,
    setBalance(amount) {
      money = amount;
    },
    advance(ms) {
      clock += ms;
    },
    setStatus(msgId, status) {
      const m = messages.find((x) => x.msgId === msgId);
      if (m) m.status = status;
    },
    setLatency: kit.setLatency,
    setFault: kit.setFault,
    reset() {
      kit.resetSwitches();
      messages.length = 0;
      money = startBalance;
      clock = 0;
    },
    async close() {
      kit.clearTimers();
      await app.close();
    },
  };

  // Every body as text: AlphaSMS refuses JSON sent under another Content-Type, so the emulator must see it.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));

  registerControlRoutes(app, kit, { reset: () => emulator.reset(), body: (req) => parseJson(req.body) });
  app.get('/__emulator/state', async () => ({
    balance: money,
    messages: messages.map((m) => ({ ...m, status: statusOf(m) })),
    requests: kit.requests.length,
  }));
  app.post('/__emulator/balance', async (req) => {
    emulator.setBalance(Number((parseJson(req.body) as { amount?: number } | undefined)?.amount ?? startBalance));
    return { ok: true, balance: money };
  });
  app.post('/__emulator/advance', async (req) => {
    emulator.advance(Number((parseJson(req.body) as { ms?: number } | undefined)?.ms ?? 0));
    return { ok: true };
  });
  app.post('/__emulator/status', async (req) => {
    const b = (parseJson(req.body) ?? {}) as { msgId?: number; status?: string };
    emulator.setStatus(Number(b.msgId), String(b.status ?? 'UNDELIVERABLE'));
    return { ok: true };
  });

  app.post('/api/json.php', async (req, reply) => {
    const contentType = req.headers['content-type'];
    const body = parseJson(req.body);
    const entry = kit.log({
      path: req.url,
      contentType,
      body: redactKey(body),
      status: 200,
      receivedAt: new Date().toISOString(),
    });
    await kit.delay();
    const fault = kit.takeFault();
    if (fault?.status && fault.status !== 200) {
      if (fault.status === 401) return { success: false, error: 'Access denied' };
      entry.status = fault.status;
      if (fault.retryAfter !== undefined) reply.header('retry-after', String(fault.retryAfter));
      return reply
        .code(fault.status)
        .send(fault.status >= 500 ? 'Bad Gateway' : { success: false, error: 'Too many requests' });
    }
    if (fault?.error) return { success: false, error: fault.error };
    if (!contentType?.toLowerCase().startsWith('application/json') || !body || typeof body !== 'object') {
      return { success: false, error: 'Invalid request' };
    }
    const { auth, data } = body as { auth?: unknown; data?: unknown };
    if (auth !== apiKey) return { success: false, error: 'Access denied' };
    if (!Array.isArray(data) || !data.length) return { success: false, error: 'Invalid request' };
    return { success: true, data: data.map((item) => answer(item, fault?.itemError)) };
  });

  const { port, url } = await listenEmulator(app, options);
  emulator.port = port;
  emulator.url = url;
  return emulator;
}

/** The request log never keeps the key. */
function redactKey(body: unknown): unknown {
  if (!body || typeof body !== 'object' || !('auth' in body)) return body;
  return { ...(body as object), auth: '[redacted]' };
}
