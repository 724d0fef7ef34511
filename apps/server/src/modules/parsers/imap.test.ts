// The mailbox poll against a real IMAP server (our own Dovecot instance, test/dovecot.ts): mail in
// the mailbox becomes leads exactly once, across connections the server drops at the worst moments
// and across a restart of the app; read mail is flagged \Seen or moved; a refused sign-in is shown.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { ImapFlow } from 'imapflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { leads, parserMailboxes, parserMails, users } from '../../db/schema';
import { type CuttingProxy, type Dovecot, startCuttingProxy, startDovecot } from '../../test/dovecot';
import {
  bearer,
  createTestDatabase,
  logIn,
  onUnlimitedPlan,
  type SignedInUser,
  signUp,
  type TestApp,
  type TestDatabase,
} from '../../test/test-app';

const fixture = (name: string) => readFileSync(new URL(`../../../fixtures/parsers/${name}`, import.meta.url));
const admin = '/api/admin/parser';

let dovecot: Dovecot;
let proxy: CuttingProxy;
let database: TestDatabase;
const encryptionKey = randomBytes(32).toString('base64');

/** An app on the shared test database, as a process of the install would be (same key). */
async function startApp(): Promise<TestApp> {
  const app = await buildApp({
    publicUrl: 'http://app.test',
    databaseUrl: database.url,
    encryptionKey,
    allowPrivateDestinations: true,
    parsers: { mailDomain: 'parsers.test' },
  });
  await app.ready();
  return { app, outbox: app.mailer.outbox, databaseUrl: database.url, close: () => app.close() };
}

let t: TestApp;
let staff: SignedInUser;

beforeAll(async () => {
  dovecot = await startDovecot();
  proxy = await startCuttingProxy(dovecot.port);
  database = await createTestDatabase('lr_test', { migrated: true });
  t = await startApp();
  staff = await onUnlimitedPlan(t, await signUp(t));
  await t.app.db.update(users).set({ role: 'admin' }).where(eq(users.login, staff.login));
}, 60_000);

afterAll(async () => {
  await t?.close();
  await proxy?.close();
  await database?.drop();
  await dovecot?.stop();
});

async function mailbox<T>(fn: (client: ImapFlow) => Promise<T>): Promise<T> {
  const client = new ImapFlow({
    host: '127.0.0.1',
    port: dovecot.port,
    secure: false,
    auth: { user: dovecot.user, pass: dovecot.password },
    logger: false,
  });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.logout();
  }
}

/** A mail with its own Message-ID, as a contact form sends one. */
function formMail(n: number, phone: string): Buffer {
  return Buffer.from(
    `From: Форма <forms@site.example.ua>\r\nTo: ${dovecot.user}\r\nSubject: =?utf-8?B?${Buffer.from(`Заявка ${n}`).toString('base64')}?=\r\n` +
      `Message-ID: <form-${n}-${randomBytes(4).toString('hex')}@site.example.ua>\r\nMIME-Version: 1.0\r\n` +
      `Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\nІм'я: Клієнт ${n}\r\nТелефон: ${phone}\r\n`,
  );
}

const messagesIn = (status: false | { messages?: number }) => (status ? status.messages : undefined);

const append = (raw: Buffer, folder = 'INBOX') => mailbox((c) => c.append(folder, raw));

async function call(app: FastifyInstance, method: 'GET' | 'PUT' | 'POST', url: string, body?: unknown) {
  return app.inject({ method, url, headers: bearer(staff.accessToken), ...(body ? { payload: body as object } : {}) });
}

async function parserOnMailbox(app: FastifyInstance, imap: Record<string, unknown> = {}) {
  const created = await call(app, 'POST', '/api/legacy/api/admin/parser', { name: 'Поштова скринька' });
  const id = created.json()._id as string;
  const res = await call(app, 'PUT', `${admin}/${id}/config`, {
    imap: {
      enabled: true,
      host: '127.0.0.1',
      port: proxy.port,
      tls: false,
      login: dovecot.user,
      password: dovecot.password,
      ...imap,
    },
  });
  if (res.statusCode !== 200) throw new Error(res.body);
  return id;
}

const leadsOf = (app: FastifyInstance, id: string) =>
  app.db.select().from(leads).where(eq(leads.integrationId, id)).orderBy(leads.createdAt);
const phones = async (app: FastifyInstance, id: string) => (await leadsOf(app, id)).map((l) => l.fields.phone).sort();

describe('a parser polling a mailbox', () => {
  it('turns its mail into leads exactly once across dropped connections and a restart', async () => {
    await mailbox((c) => c.mailboxCreate('Processed').catch(() => undefined));
    const id = await parserOnMailbox(t.app);
    await append(formMail(1, '0670000001'));
    await append(formMail(2, '0670000002'));

    // The server drops the connection as we flag what we took: both were stored first, so both are leads.
    proxy.cutOn(/UID STORE/);
    await expect(t.app.parsers.pollOne(id)).rejects.toThrow();
    await t.app.parsers.drain();
    expect(await phones(t.app, id)).toEqual(['+380670000001', '+380670000002']);
    const [state] = await t.app.db.select().from(parserMailboxes).where(eq(parserMailboxes.integrationId, id));
    expect(state!.lastError).toMatch(/^PARSER_IMAP_FAILED/);
    // Shown on the parser's page.
    expect((await call(t.app, 'GET', `${admin}/${id}`)).json().imap.lastError).toMatch(/^PARSER_IMAP_FAILED/);

    // The next poll takes nothing twice.
    expect(await t.app.parsers.pollOne(id)).toEqual([]);
    await append(formMail(3, '0670000003'));
    await append(formMail(4, '0670000004'));
    // Dropped while fetching the second new message: the first is kept, the second comes next time.
    proxy.cutOn(/BODY\.PEEK\[\]/, 2);
    await expect(t.app.parsers.pollOne(id)).rejects.toThrow();
    await t.app.parsers.drain();
    expect(await phones(t.app, id)).toHaveLength(3);

    // A restart: another process on the same database (the first stopped) takes up where it was.
    await t.app.close();
    t = await startApp();
    staff = await logIn(t, staff.login);
    expect((await t.app.parsers.pollOne(id)).length).toBe(1);
    await t.app.parsers.drain();
    expect(await phones(t.app, id)).toEqual(['+380670000001', '+380670000002', '+380670000003', '+380670000004']);
    expect(proxy.cuts).toBe(2);

    // The same mail put in the mailbox again (a new UID, the same Message-ID) is a duplicate, not a lead.
    const again = formMail(5, '0670000005');
    await append(again);
    await append(again);
    await t.app.periodic.runNow('parser-imap-poll');
    await t.app.parsers.drain();
    expect(await phones(t.app, id)).toHaveLength(5);
    const statuses = (await t.app.db.select().from(parserMails).where(eq(parserMails.integrationId, id))).map(
      (m) => m.status,
    );
    expect(statuses.filter((s) => s === 'lead')).toHaveLength(5);
    expect(statuses.filter((s) => s === 'duplicate')).toHaveLength(1);
    expect(statuses.every((s) => s === 'lead' || s === 'duplicate')).toBe(true);

    // Everything taken, also what was stored just before a cut, ends up flagged \Seen on the server.
    const unseen = await mailbox(async (c) => {
      await c.mailboxOpen('INBOX');
      return (await c.search({ seen: false }, { uid: true })) || [];
    });
    expect(unseen).toEqual([]);
  }, 60_000);

  it('moves what it took to another folder when told to, and decodes a windows-1251 mail', async () => {
    const id = await parserOnMailbox(t.app, { afterRead: 'move', moveTo: 'Processed', mailbox: 'Orders' });
    await mailbox((c) => c.mailboxCreate('Orders').catch(() => undefined));
    await append(fixture('form-windows-1251.eml'), 'Orders');
    await t.app.parsers.pollOne(id);
    await t.app.parsers.drain();
    const [lead] = await leadsOf(t.app, id);
    expect(lead!.fields).toMatchObject({ name: 'Петро Ґудзь', phone: '+380677654321' });
    const counts = await mailbox(async (c) => ({
      orders: messagesIn(await c.status('Orders', { messages: true })),
      processed: messagesIn(await c.status('Processed', { messages: true })),
    }));
    expect(counts.orders).toBe(0);
    expect(counts.processed).toBeGreaterThanOrEqual(1);
  }, 30_000);

  it('shows a refused sign-in on the page, and "check now" answers it as PARSER_IMAP_FAILED', async () => {
    const id = await parserOnMailbox(t.app, { password: 'wrong-password' });
    const res = await call(t.app, 'POST', `${admin}/${id}/poll`, {});
    expect([res.statusCode, res.json().code]).toEqual([424, 'PARSER_IMAP_FAILED']);
    const shown = (await call(t.app, 'GET', `${admin}/${id}`)).json();
    expect(shown.imap.lastError).toMatch(/^PARSER_IMAP_FAILED/);
    expect(JSON.stringify(shown)).not.toContain('wrong-password');
    expect(await leadsOf(t.app, id)).toEqual([]);
  }, 30_000);
});
