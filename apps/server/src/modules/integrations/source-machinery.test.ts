// The source machinery with a source of its own (a lead form nobody registered, so nothing of
// Horoshop's helps it): a poll takes each item once and keeps its cursor, a receiver bringing the
// same item makes no second lead, ids from outside are data, a refused login marks the integration
// broken and the next good poll mends it, polls run a few at a time and end at their timeout, seen
// items are forgotten per type, and every registered source declares what the server can mount.
import { randomBytes } from 'node:crypto';
import {
  connectors,
  defineConnector,
  PermanentError,
  RetryableError,
  type SourceItem,
  type SourceReceiver,
} from '@leadrelay/connectors';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connectorSeen, connectorState, hooks, integrations, leads } from '../../db/schema';
import { statusOf } from '../../lib/error-codes';
import { accountIdOf } from '../../test/routing-fixtures';
import { createTestApp, onUnlimitedPlan, signUp, type TestApp } from '../../test/test-app';
import { connectorError, connectorReason, isAuthFailure } from './connector-errors';
import { readState, receive, ZSourceState } from './source.service';
import { sourceDeps } from './source-deps';
import { PRUNE_SEEN_TASK } from './source-items';
import { pollSources, sourceTasks } from './source-poll';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const TYPE = 'test-lead-form';

/** What the form's "API" has: every item ever made, in order. */
const feed: SourceItem[] = [];
let refusal: Error | undefined;
let hang = false;
let running = 0;
let mostAtOnce = 0;

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

const receiver: SourceReceiver = {
  path: '/api/test-lead-form/in/:token',
  methods: ['POST'],
  summary: 'A test form',
  read: (body) => {
    const list = isRecord(body) && Array.isArray(body.leads) ? body.leads : [];
    return list.flatMap((l) =>
      isRecord(l) && typeof l.id === 'string' ? [{ id: l.id, payload: { name: String(l.name ?? '') } }] : [],
    );
  },
  empty: 'VALIDATION_ERROR',
};

const form = defineConnector<unknown, unknown>({
  slug: TYPE,
  kind: 'source',
  auth: z.record(z.string(), z.unknown()),
  settings: z.record(z.string(), z.unknown()),
  source: {
    items: {
      key: 'form-lead',
      header: 'x-form-lead-id',
      dedupeWindowHours: 24,
      keepForMs: DAY,
      summary: (payload) => ({ name: payload.name ?? null }),
    },
    receivers: { leads: receiver },
    poll: {
      task: 'test-lead-form-poll',
      everyMs: MINUTE,
      concurrency: 2,
      timeoutMs: 400,
      requestTimeoutMs: 200,
      // A fresh connection takes what is made from now on.
      start: () => ({ seen: feed.length }),
      async run(ctx, { cursor }) {
        running++;
        mostAtOnce = Math.max(mostAtOnce, running);
        try {
          await new Promise((r) => setTimeout(r, 20));
          if (hang) {
            await new Promise((_, reject) =>
              ctx.signal.addEventListener('abort', () => reject(new RetryableError('TIMEOUT', { code: 'TIMEOUT' }))),
            );
          }
          if (refusal) throw refusal;
          const from = (cursor as { seen: number }).seen;
          return { items: feed.slice(from), cursor: { seen: feed.length } };
        } finally {
          running--;
        }
      },
    },
  },
});

let t: TestApp;
let accountId: string;
beforeAll(async () => {
  t = await createTestApp();
  const user = await onUnlimitedPlan(t, await signUp(t));
  accountId = await accountIdOf(t.app.db, user.login);
});
afterAll(() => t?.close());
beforeEach(async () => {
  refusal = undefined;
  hang = false;
  mostAtOnce = 0;
  // Each test's sources are its own: the ones before it are switched off.
  await t.app.db.update(integrations).set({ active: false }).where(eq(integrations.type, TYPE));
});

/** A source of the form's type, connected (credentials sealed) unless told. */
async function formSource(values: { active?: boolean; connected?: boolean } = {}) {
  const token = randomBytes(16).toString('hex');
  const [row] = await t.app.db
    .insert(integrations)
    .values({ accountId, type: TYPE, name: 'Form', active: values.active ?? true, hookToken: token })
    .returning();
  if (values.connected ?? true) {
    await t.app.db
      .update(integrations)
      .set({ auth: t.app.deps.secrets.seal({}, row!.id) })
      .where(eq(integrations.id, row!.id));
  }
  return { id: row!.id, token };
}

const poll = () => pollSources(sourceDeps(t.app), form, new Date());
const leadsOf = (id: string) => t.app.db.select().from(leads).where(eq(leads.integrationId, id));
const seenOf = (id: string) => t.app.db.select().from(connectorSeen).where(eq(connectorSeen.integrationId, id));
const stateOf = async (id: string) =>
  (await t.app.db.select().from(connectorState).where(eq(connectorState.integrationId, id)))[0];
const rowOf = async (id: string) => (await t.app.db.select().from(integrations).where(eq(integrations.id, id)))[0]!;
const send = (token: string, body: unknown) =>
  receive(t.app.deps, form, receiver, token, async () => body, { method: 'POST', headers: {} });
const made = (...names: string[]) => {
  for (const name of names) feed.push({ id: `${name}-${feed.length}`, payload: { name } });
};

describe('a poll', () => {
  it('starts from the connection, takes each item once, keeps its cursor; the receiver bringing one later makes no lead', async () => {
    made('Before');
    const s = await formSource();
    expect(await poll()).toMatchObject({ sources: 0, failures: 0 });
    expect((await stateOf(s.id))?.cursor).toEqual({ seen: feed.length });

    made('Olena', 'Taras');
    expect(await poll()).toMatchObject({ sources: 1, items: 2 });
    const taken = await leadsOf(s.id);
    expect(taken.map((l) => l.fields.name).sort()).toEqual(['Olena', 'Taras']);
    const olena = feed.find((i) => i.payload.name === 'Olena')!;
    expect(taken.find((l) => l.fields.name === 'Olena')!.sourceId).toBe(`form-lead:${olena.id}`);
    const [hook] = await t.app.db
      .select()
      .from(hooks)
      .where(and(eq(hooks.integrationId, s.id)));
    expect(hook!.request.headers).toMatchObject({
      'x-leadrelay-source': `${TYPE}-poll`,
      'x-form-lead-id': expect.any(String),
    });

    expect(await poll()).toMatchObject({ sources: 1, items: 0 });
    const late = await send(s.token, { leads: [{ id: olena.id, name: 'Olena' }] });
    expect(late).toEqual([{ id: olena.id, status: 'repeat', hookId: null }]);
    expect(await leadsOf(s.id)).toHaveLength(2);
    const seen = await seenOf(s.id);
    expect(seen.find((x) => x.itemId === olena.id)).toMatchObject({
      via: 'poll',
      timesSeen: 2,
      summary: { name: 'Olena' },
    });
  });

  it('leaves inactive and unconnected sources alone, and polls the rest a few at a time', async () => {
    const off = await formSource({ active: false });
    const bare = await formSource({ connected: false });
    const polled = await Promise.all(Array.from({ length: 5 }, () => formSource()));
    await poll();
    made('Many');
    mostAtOnce = 0;
    expect(await poll()).toMatchObject({ sources: 5, items: 5 });
    expect(mostAtOnce).toBe(2);
    for (const s of polled) expect(await leadsOf(s.id)).toHaveLength(1);
    for (const s of [off, bare]) {
      expect(await stateOf(s.id)).toBeUndefined();
      expect(await leadsOf(s.id)).toHaveLength(0);
    }
  });

  it('marks the integration broken when the sender refuses the login, notes other failures, and mends on the next good run', async () => {
    const s = await formSource();
    await poll();
    refusal = new PermanentError('The form refused the key', { code: 'AUTH' });
    expect(await poll()).toMatchObject({ failures: 1 });
    expect(await rowOf(s.id)).toMatchObject({ status: 'broken', statusReason: 'The form refused the key' });
    expect((await stateOf(s.id))?.lastPollError).toBe('The form refused the key');
    const cursor = (await stateOf(s.id))?.cursor;

    refusal = new RetryableError('The form is down', { code: 'HTTP_5XX' });
    made('While down');
    await poll();
    expect((await stateOf(s.id))?.lastPollError).toBe('The form is down');
    expect((await stateOf(s.id))?.cursor).toEqual(cursor);

    refusal = undefined;
    await poll();
    expect(await rowOf(s.id)).toMatchObject({ status: 'ok', statusReason: null });
    expect((await stateOf(s.id))?.lastPollError).toBeNull();
    expect((await leadsOf(s.id)).map((l) => l.fields.name)).toEqual(['While down']);
  });

  it('ends at its timeout when the sender never answers', async () => {
    const s = await formSource();
    await poll();
    hang = true;
    const started = Date.now();
    expect(await poll()).toMatchObject({ failures: 1 });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await stateOf(s.id))?.lastPollError).toBe('TIMEOUT');
  });
});

describe('a receiver', () => {
  it('takes ids from outside as data: __proto__ and constructor are items like any other', async () => {
    const s = await formSource();
    const body = { leads: ['__proto__', 'constructor', 'hasOwnProperty'].map((id) => ({ id, name: id })) };
    // No destination: accepted (a lead, nothing to deliver).
    expect((await send(s.token, JSON.parse(JSON.stringify(body)))).map((o) => o.status)).toEqual([
      'accepted',
      'accepted',
      'accepted',
    ]);
    expect((await send(s.token, body)).map((o) => o.status)).toEqual(['repeat', 'repeat', 'repeat']);
    expect((await seenOf(s.id)).map((x) => x.itemId).sort()).toEqual(['__proto__', 'constructor', 'hasOwnProperty']);
    expect((await leadsOf(s.id)).map((l) => l.sourceId).sort()).toEqual([
      'form-lead:__proto__',
      'form-lead:constructor',
      'form-lead:hasOwnProperty',
    ]);
  });

  it("answers the receiver's own error for a body without items, and 404 for another type's or an inactive token", async () => {
    const s = await formSource();
    await expect(send(s.token, { leads: [{ name: 'no id' }] })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    await expect(send('not-a-token', { leads: [{ id: 'x' }] })).rejects.toMatchObject({
      code: 'INTEGRATION_NOT_FOUND',
    });
    await t.app.db.update(integrations).set({ active: false }).where(eq(integrations.id, s.id));
    await expect(send(s.token, { leads: [{ id: 'x' }] })).rejects.toMatchObject({ code: 'INTEGRATION_NOT_FOUND' });
    expect(await leadsOf(s.id)).toHaveLength(0);
  });
});

describe('seen items', () => {
  it('are forgotten after the type keeps them, and only that type\u2019s', async () => {
    const s = await formSource();
    const [shop] = await t.app.db
      .insert(integrations)
      .values({ accountId, type: 'horoshop', name: 'Shop' })
      .returning({ id: integrations.id });
    const long = new Date(Date.now() - 2 * DAY);
    await t.app.db.insert(connectorSeen).values([
      { integrationId: s.id, accountId, itemId: 'old', via: 'poll', firstSeenAt: long, lastSeenAt: long },
      { integrationId: s.id, accountId, itemId: 'new', via: 'poll' },
      { integrationId: shop!.id, accountId, itemId: 'old', via: 'poll', firstSeenAt: long, lastSeenAt: long },
    ]);
    const tasks = sourceTasks(sourceDeps(t.app), [form]);
    expect(tasks.map((task) => task.name)).toEqual(['test-lead-form-poll', PRUNE_SEEN_TASK]);
    await t.app.db.transaction((tx) => tasks[1]!.run(tx, new Date()));
    expect((await seenOf(s.id)).map((x) => x.itemId)).toEqual(['new']);
    expect((await seenOf(shop!.id)).map((x) => x.itemId)).toEqual(['old']);
  });

  it('show on a screen whose connector reads none of its own without credentials or settings', () => {
    const at = new Date('2026-11-01T10:00:00Z');
    const state = readState(form.source!, {
      auth: { key: 'secret-key' },
      settings: { formId: '7' },
      subscription: { status: 'none', registeredAt: null, removedAt: null },
      poll: { cursor: { seen: 3 }, lastRunAt: at, lastError: null },
      seen: [
        {
          id: 'a',
          via: 'webhook',
          timesSeen: 1,
          hookId: null,
          status: null,
          summary: { name: 'Olena' },
          firstSeenAt: at,
          lastSeenAt: at,
        },
      ],
    });
    expect(ZSourceState.parse(state)).toEqual(state);
    expect(JSON.stringify(state)).not.toContain('secret-key');
    expect(state).toMatchObject({ poll: { lastRunAt: at.toISOString() }, seen: [{ firstSeenAt: at.toISOString() }] });
  });
});

describe("a connector's failures", () => {
  const spec = {
    errors: {
      byCode: { AUTH: 'CONNECTION_FAILED', GONE: { key: 'INTEGRATION_NOT_CONNECTED', bare: true } },
      otherwise: 'OPERATION_NOT_SUPPORTED',
      words: (e: unknown) => (e as { words?: string }).words,
    },
  } as const;

  it('answer by their code, with the service\u2019s words; a code from outside is looked up as its own entry only', () => {
    const refused = Object.assign(new PermanentError('no', { code: 'AUTH' }), { words: 'Ключ не той' });
    expect(connectorError(spec, refused)).toMatchObject({ code: 'CONNECTION_FAILED', message: 'Ключ не той' });
    expect(connectorReason(spec, refused)).toBe('CONNECTION_FAILED: Ключ не той');
    expect(connectorError(spec, new PermanentError('x', { code: 'GONE' })).message).not.toBe('x');
    for (const code of ['constructor', '__proto__', 'toString']) {
      expect(connectorError(spec, new PermanentError('x', { code })).code).toBe('OPERATION_NOT_SUPPORTED');
    }
    expect(connectorReason({}, new Error('plain'))).toBe('plain');
    expect(isAuthFailure(refused)).toBe(true);
    expect(isAuthFailure(new RetryableError('down', { code: 'HTTP_5XX' }))).toBe(false);
  });
});

describe('every registered source', () => {
  const sources = [...connectors.values()].filter((c) => c.source);

  it('declares what the server can mount: known error keys, receivers with their token, one name per poll', () => {
    expect(sources.length).toBeGreaterThan(0);
    const tasks = new Set<string>();
    for (const c of sources) {
      const keys = [
        ...Object.values(c.errors?.byCode ?? {}).map((e) => (typeof e === 'string' ? e : e.key)),
        ...(c.errors ? [c.errors.otherwise] : []),
        ...Object.values(c.source!.receivers ?? {}).map((r) => r.empty),
      ];
      for (const key of keys) expect([c.slug, key, statusOf(key)]).not.toEqual([c.slug, key, 500]);
      for (const r of Object.values(c.source!.receivers ?? {})) expect(r.path).toMatch(/^\/api\/[^:]+\/:token$/);
      if (c.source!.subscription)
        expect(Object.keys(c.source!.receivers ?? {})).toContain(c.source!.subscription.receiver);
      const poll = c.source!.poll;
      if (poll) {
        expect(tasks.has(poll.task)).toBe(false);
        tasks.add(poll.task);
      }
    }
  });
});
