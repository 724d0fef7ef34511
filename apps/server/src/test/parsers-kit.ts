// A test app with the parser SMTP listener on a free loopback port, a staff member (privileged: parsers
// are a staff feature) and a client, and helpers to send mail with nodemailer as any mail server would.
import { eq } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { AppOptions } from '../app';
import { leads, parserMails, users } from '../db/schema';
import { callAs, createTestApp, onUnlimitedPlan, type SignedInUser, signUp, type TestApp } from './test-app';

export const MAIL_DOMAIN = 'parsers.test';

export interface ParsersTest {
  t: TestApp;
  staff: SignedInUser;
  client: SignedInUser;
  smtpPort: number;
  close(): Promise<void>;
}

export async function startParsersTest(options: AppOptions = {}): Promise<ParsersTest> {
  const t = await createTestApp({
    allowPrivateDestinations: true,
    ...options,
    parsers: {
      mailDomain: MAIL_DOMAIN,
      smtp: { port: 0, host: '127.0.0.1' },
      maxMailBytes: 200_000,
      ratePerMinute: 6,
      ...options.parsers,
    },
  });
  await t.app.ready();
  const staff = await onUnlimitedPlan(t, await signUp(t));
  await t.app.db.update(users).set({ role: 'admin' }).where(eq(users.login, staff.login));
  const client = await signUp(t);
  return { t, staff, client, smtpPort: t.app.parsers.smtp.port!, close: () => t.close() };
}

export async function createParser(p: ParsersTest, body: Record<string, unknown> = {}) {
  const res = await callAs(p.t, 'POST', '/api/legacy/api/admin/parser', p.staff, { name: 'Замовлення Prom', ...body });
  if (res.statusCode !== 201) throw new Error(`create parser failed: ${res.body}`);
  return res.json() as { _id: string; address: string };
}

/** Sends a mail over SMTP to our listener; resolves with the server's answer or rejects with its error. */
export function sendMail(
  port: number,
  mail: {
    to: string | string[];
    from?: string;
    subject?: string;
    text?: string;
    html?: string;
    raw?: string | Buffer;
    messageId?: string;
  },
) {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });
  const { to, from = 'orders@prom.ua', raw, ...rest } = mail;
  const message = raw ? { envelope: { from, to: Array.isArray(to) ? to : [to] }, raw } : { from, to, ...rest };
  return transport.sendMail(message).finally(() => transport.close());
}

export const mailsOf = (t: TestApp, integrationId: string) =>
  t.app.db
    .select()
    .from(parserMails)
    .where(eq(parserMails.integrationId, integrationId))
    .orderBy(parserMails.receivedAt);
export const leadsOf = (t: TestApp, integrationId: string) =>
  t.app.db.select().from(leads).where(eq(leads.integrationId, integrationId));
