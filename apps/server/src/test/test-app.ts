// Builds the app on a real database for one test file: a fresh database on the run's PostgreSQL
// (TEST_DATABASE_URL, or the cluster test/global-setup.ts made), dropped afterwards.
import { randomBytes } from 'node:crypto';
import { COOKIE } from '@leadrelay/shared';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { expect, inject } from 'vitest';
import { type AppOptions, buildApp } from '../app';
import { plans, users } from '../db/schema';
import type { MailMessage } from '../lib/mail/mailer';

export const PASSWORD = 'Abcdefg1';

export interface TestApp {
  app: FastifyInstance;
  outbox: MailMessage[];
  /** The test database (a second app instance, as another process would, can open it too). */
  databaseUrl: string;
  close(): Promise<void>;
}

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

async function onServer(sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: inject('testDatabaseUrl') });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/**
 * A fresh database on the run's PostgreSQL: empty, or with `migrated` a copy of the run's template
 * that has every migration applied (an app started on it finds nothing left to migrate).
 */
export async function createTestDatabase(prefix = 'lr_test', { migrated = false } = {}): Promise<TestDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await onServer(
    migrated ? `CREATE DATABASE ${name} TEMPLATE ${inject('testTemplateDatabase')}` : `CREATE DATABASE ${name}`,
  );
  const url = new URL(inject('testDatabaseUrl'));
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => onServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

export async function createTestApp(options: AppOptions = {}): Promise<TestApp> {
  const database = await createTestDatabase('lr_test', { migrated: true });
  let app: FastifyInstance;
  try {
    app = await buildApp({ publicUrl: 'http://app.test', databaseUrl: database.url, ...options });
  } catch (error) {
    await database.drop();
    throw error;
  }
  return {
    app,
    outbox: app.mailer.outbox,
    databaseUrl: database.url,
    async close() {
      await app.close();
      await database.drop();
    },
  };
}

let counter = 0;
/** A login no other test in the file uses. */
export const uniqueLogin = (prefix = 'user') => `${prefix}-${Date.now().toString(36)}-${++counter}@example.com`;

/** The token in the newest mail to `login` whose link matches `pattern`. */
export function tokenFromMail(outbox: MailMessage[], login: string, pattern: RegExp): string {
  const mail = outbox.filter((m) => m.to === login).at(-1);
  const match = mail?.link?.match(pattern);
  if (!match?.[1]) throw new Error(`no mail with ${pattern} for ${login}`);
  return decodeURIComponent(match[1]);
}
export const confirmTokenOf = (outbox: MailMessage[], login: string) =>
  tokenFromMail(outbox, login, /[?&]token=([^&]+)/);
export const resetTokenOf = (outbox: MailMessage[], login: string) => tokenFromMail(outbox, login, /\/password\/(.+)$/);

export function refreshCookieOf(res: LightMyRequestResponse): string | undefined {
  return res.cookies.find((c) => c.name === COOKIE.refresh)?.value;
}

export const cookieHeader = (token: string) => ({ cookie: `${COOKIE.refresh}=${token}` });

/**
 * The cookies an answer set, as the same browser sends them back: create-account's binds the
 * confirmation link to that browser, and confirm-email signs in only with it.
 */
export const sameBrowser = (res: LightMyRequestResponse) => ({
  cookie: res.cookies.map((c) => `${c.name}=${c.value}`).join('; '),
});
export const bearer = (accessToken: string) => ({ authorization: `Bearer ${accessToken}` });

export interface SignedInUser {
  login: string;
  accessToken: string;
  refreshToken: string;
}

/** Signs up a staff member: an account given the role right after (tokens read the role afresh). */
export async function signUpStaff(t: TestApp, role: 'admin' | 'support' | 'owner' = 'admin'): Promise<SignedInUser> {
  const user = await signUp(t);
  await t.app.db.update(users).set({ role }).where(eq(users.login, user.login));
  return user;
}

/** Signs up, confirms the e-mail from the mail, and returns the signed-in tokens. */
/**
 * Puts the account on a plan without limits: for suites that create more integrations than a demo
 * may (the limits themselves are tested in modules/plans).
 */
export async function onUnlimitedPlan(t: TestApp, user: SignedInUser): Promise<SignedInUser> {
  const [plan] = await t.app.db
    .insert(plans)
    .values({
      title: { uk: 'Без обмежень (тести)', en: 'Unlimited (tests)' },
      monthlyCents: 0,
      annualCents: 0,
      limits: { leadsPerMonth: null, integrations: null, destinationsPerSource: null },
    })
    .returning({ id: plans.id });
  await t.app.db.update(users).set({ planId: plan!.id }).where(eq(users.login, user.login));
  return user;
}

export async function signUp(t: TestApp, login = uniqueLogin(), password = PASSWORD): Promise<SignedInUser> {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/auth/create-account',
    payload: { login, password, passwordConfirm: password },
  });
  if (created.statusCode !== 201) throw new Error(`sign-up failed: ${created.body}`);
  const confirmed = await t.app.inject({
    method: 'POST',
    url: '/api/auth/confirm-email',
    payload: { token: confirmTokenOf(t.outbox, login) },
    headers: sameBrowser(created),
  });
  if (confirmed.statusCode !== 200 || !confirmed.json().accessToken)
    throw new Error(`confirm failed: ${confirmed.body}`);
  return { login, accessToken: confirmed.json().accessToken, refreshToken: refreshCookieOf(confirmed)! };
}

export async function logIn(t: TestApp, login: string, password = PASSWORD): Promise<SignedInUser> {
  const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { login, password } });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.body}`);
  return { login, accessToken: res.json().accessToken, refreshToken: refreshCookieOf(res)! };
}

/** Asserts the API error shape and returns the body. */
export function errorOf(res: LightMyRequestResponse): {
  statusCode: number;
  code: string;
  message: string;
  errors?: { field: string; code: string }[];
} {
  return res.json();
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One API call as `user` (anonymous when null), with an optional JSON body. */
export function callAs(t: TestApp, method: Method, url: string, user: SignedInUser | null, payload?: unknown) {
  return t.app.inject({
    method,
    url,
    headers: user ? bearer(user.accessToken) : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

/** Asserts the status and the error key of an answer together. */
export function expectError(res: LightMyRequestResponse, status: number, code: string): void {
  expect([res.statusCode, errorOf(res).code]).toEqual([status, code]);
}
