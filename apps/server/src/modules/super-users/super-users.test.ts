import { eq, sql } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/client';
import { auditLog, plans, users } from '../../db/schema';
import { accountIdOf, createDestination, createSource } from '../../test/routing-fixtures';
import {
  callAs,
  cookieHeader,
  createTestApp,
  expectError,
  logIn,
  PASSWORD,
  type SignedInUser,
  signUp,
  type TestApp,
  uniqueLogin,
} from '../../test/test-app';

let t: TestApp;
let owner: SignedInUser;
let admin: SignedInUser;
let support: SignedInUser;
let client: SignedInUser;
const OWNER = { login: uniqueLogin('owner'), password: PASSWORD };

const setRole = (login: string, role: 'admin' | 'support') =>
  t.app.db.update(users).set({ role }).where(eq(users.login, login));
const idOf = (user: { login: string }) => accountIdOf(t.app.db, user.login);
const lastAudit = async () => (await t.app.db.select().from(auditLog).orderBy(sql`id desc`).limit(1))[0]!;

beforeAll(async () => {
  t = await createTestApp({ owner: OWNER });
  owner = await logIn(t, OWNER.login);
  admin = await signUp(t);
  await setRole(admin.login, 'admin');
  support = await signUp(t);
  await setRole(support.login, 'support');
  client = await signUp(t);
});
afterAll(() => t.close());

const LEGACY = '/api/legacy/api/super-admin/users';

describe('clients: access', () => {
  it('is for staff only: a client gets 403, anonymous 401', async () => {
    const id = await idOf(client);
    const calls: [Parameters<typeof callAs>[1], string, unknown?][] = [
      ['GET', `${LEGACY}/count`],
      ['GET', LEGACY],
      ['POST', LEGACY, { login: uniqueLogin() }],
      ['GET', `${LEGACY}/${id}/statistic`],
      ['GET', `/api/super/users/enter?id=${id}`],
      ['POST', `/api/super/users/${id}/reset-password`],
      ['PATCH', `/api/super/users/${id}`, { active: false }],
      ['DELETE', `/api/super/users/${id}`],
      ['DELETE', `/api/super/users/${id}/hard-delete`, { confirm: client.login }],
      ['DELETE', '/api/super/users/orphaned-documents'],
    ];
    for (const [method, url, body] of calls) {
      expectError(await callAs(t, method, url, client, body), 403, 'FORBIDDEN');
      expectError(await callAs(t, method, url, null, body), 401, 'UNAUTHORIZED');
    }
    // Nothing changed on the way.
    const [row] = await t.app.db.select().from(users).where(eq(users.login, client.login));
    expect(row).toMatchObject({ active: true, deletedAt: null });
  });
});

describe('clients: counters and list', () => {
  it('counts total, active, inactive and deleted accounts', async () => {
    const before = (await callAs(t, 'GET', `${LEGACY}/count`, support)).json();
    const extra = await signUp(t);
    await callAs(t, 'PATCH', `/api/super/users/${await idOf(extra)}`, admin, { active: false });
    const after = (await callAs(t, 'GET', `${LEGACY}/count`, support)).json();
    expect(after.total).toBe(before.total + 1);
    expect(after.inactive).toBe(before.inactive + 1);
    expect(after.total).toBe(after.active + after.inactive + after.deleted);
  });

  it('searches, filters by status and plan, pages, and returns the counter beside the data', async () => {
    const [plan] = await t.app.db
      .insert(plans)
      .values({
        title: { uk: 'Старт', en: 'Start' },
        monthlyCents: 100,
        annualCents: 1000,
        limits: { leadsPerMonth: null, integrations: null, destinationsPerSource: null },
      })
      .returning({ id: plans.id });
    const onPlan = await signUp(t, uniqueLogin('planned'));
    await callAs(t, 'PATCH', `/api/super/users/${await idOf(onPlan)}`, admin, { plan: plan!.id });

    const found = (await callAs(t, 'GET', `${LEGACY}?search=planned`, admin)).json();
    expect(found.data.map((u: { login: string }) => u.login)).toEqual([onPlan.login]);
    expect(found.data[0]).toMatchObject({ planId: plan!.id, isActive: true });
    expect(found.counter.total).toBeGreaterThan(3);

    const byId = (await callAs(t, 'GET', `${LEGACY}?search=${await idOf(onPlan)}`, admin)).json();
    expect(byId.data.map((u: { login: string }) => u.login)).toEqual([onPlan.login]);

    const byPlan = (await callAs(t, 'GET', `${LEGACY}?plan=${plan!.id}`, admin)).json();
    expect(byPlan.total).toBe(1);
    const demo = (await callAs(t, 'GET', `${LEGACY}?plan=demo&limit=100`, admin)).json();
    expect(demo.data.some((u: { login: string }) => u.login === onPlan.login)).toBe(false);

    const inactive = (await callAs(t, 'GET', `${LEGACY}?status=inactive&limit=100`, admin)).json();
    expect(inactive.data.every((u: { isActive: boolean }) => !u.isActive)).toBe(true);

    const page = (await callAs(t, 'GET', `${LEGACY}?limit=2&page=2&sort=login`, admin)).json();
    expect(page.data).toHaveLength(2);
    expect(page.total).toBeGreaterThan(4);
  });

  it('refuses bad filters with a key', async () => {
    expectError(await callAs(t, 'GET', `${LEGACY}?status=gone`, admin), 400, 'VALIDATION_ERROR');
    expectError(await callAs(t, 'GET', `${LEGACY}?plan=nope`, admin), 400, 'VALIDATION_ERROR');
    expectError(await callAs(t, 'GET', `${LEGACY}?limit=1000`, admin), 400, 'VALIDATION_ERROR');
  });
});

describe('clients: create', () => {
  it('creates an account whose generated password, shown once, signs in', async () => {
    const login = uniqueLogin('made');
    const res = await callAs(t, 'POST', LEGACY, support, { login });
    expect(res.statusCode).toBe(201);
    const { user, password } = res.json();
    expect(user).toMatchObject({ login, role: 'client', emailConfirmed: true });
    expect(password).toMatch(/^(?=.*\d)(?=.*[a-z])(?=.*[A-Z])[A-Za-z\d]{8,12}$/);
    expect((await logIn(t, login, password)).accessToken).toBeTruthy();
    expect(await lastAudit()).toMatchObject({ action: 'user.create', targetLabel: login });
    expectError(await callAs(t, 'POST', LEGACY, support, { login }), 409, 'LOGIN_TAKEN');
    expectError(await callAs(t, 'POST', LEGACY, support, { login: 'not-mail' }), 400, 'EMAIL');
  });

  it('lets only the owner make staff accounts, and nobody an owner', async () => {
    expectError(await callAs(t, 'POST', LEGACY, admin, { login: uniqueLogin(), role: 'admin' }), 403, 'USER_PROTECTED');
    expectError(await callAs(t, 'POST', LEGACY, owner, { login: uniqueLogin(), role: 'owner' }), 403, 'USER_PROTECTED');
    const made = await callAs(t, 'POST', LEGACY, owner, { login: uniqueLogin(), role: 'support' });
    expect(made.json().user.role).toBe('support');
  });
});

describe('clients: statistic', () => {
  it('gives leads per day, integrations, delivery success and last activity', async () => {
    const someone = await signUp(t);
    const accountId = await idOf(someone);
    const destination = await createDestination(t.app.db, accountId);
    const source = await createSource(t.app.db, accountId, { destinationIds: [destination] });
    const posted = await t.app.inject({
      method: 'POST',
      url: source.url,
      payload: { name: 'Ivan', phone: '+380501234567' },
    });
    expect(posted.statusCode).toBeLessThan(300);
    const res = await callAs(t, 'GET', `${LEGACY}/${accountId}/statistic`, support);
    expect(res.statusCode).toBe(200);
    const stat = res.json();
    expect(stat.leadsPerDay).toHaveLength(30);
    // Today is the account's (Kyiv unless set), as its own dashboard counts it.
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Kyiv' }).format(new Date());
    expect(stat.leadsPerDay.at(-1)).toEqual({ date: today, count: 1 });
    expect(stat.leadsTotal).toBe(1);
    expect(stat.integrations).toEqual({ total: 2, active: 2, broken: 0 });
    expect(stat.lastActivity).not.toBeNull();
    expectError(await callAs(t, 'GET', `${LEGACY}/${crypto.randomUUID()}/statistic`, support), 404, 'USER_NOT_FOUND');
    expectError(await callAs(t, 'GET', `${LEGACY}/nope/statistic`, support), 400, 'VALIDATION_ERROR');
  });
});

describe('enter as a user', () => {
  it('opens a short-lived session in a client account, audited, and the operator keeps their own', async () => {
    const target = await signUp(t);
    const res = await callAs(t, 'GET', `/api/super/users/enter?id=${await idOf(target)}`, support);
    expect(res.statusCode).toBe(200);
    // A one-time code for /enter, not a session: it lives a minute (modules/auth/enter.test.ts).
    const { code, login, expiresAt } = res.json();
    expect(login).toBe(target.login);
    expect(Date.parse(expiresAt) - Date.now()).toBeLessThanOrEqual(60_000);
    expect(res.cookies).toHaveLength(0);
    const exchanged = await t.app.inject({
      method: 'POST',
      url: '/api/auth/enter',
      payload: { code },
      headers: cookieHeader(support.refreshToken),
    });
    expect(exchanged.statusCode).toBe(200);
    // No refresh cookie: the operator's own stays.
    expect(exchanged.cookies).toHaveLength(0);
    const sessionToken: string = exchanged.json().accessToken;
    const payload = decodeJwt(sessionToken);
    expect(payload).toMatchObject({ login: target.login, imp: support.login });
    expect(payload.exp! * 1000 - Date.now()).toBeLessThanOrEqual(30 * 60_000);

    const me = await t.app.inject({
      method: 'GET',
      url: '/api/account',
      headers: { authorization: `Bearer ${sessionToken}` },
    });
    expect(me.json().login).toBe(target.login);
    // Staff routes are out of reach from inside a client's account.
    const asEntered = { login: target.login, accessToken: sessionToken, refreshToken: '' };
    expectError(await callAs(t, 'GET', `${LEGACY}/count`, asEntered), 403, 'FORBIDDEN');

    const audit = await lastAudit();
    expect(audit).toMatchObject({ action: 'user.enter', actorLogin: support.login, targetLabel: target.login });
    expect(audit.ip).toBeTruthy();

    // Return: the entered session ends without clearing the browser's refresh cookie (the
    // operator's), which gives their own token back; the return is recorded in their name.
    expectError(await callAs(t, 'POST', '/api/super/users/return', support), 404, 'SESSION_NOT_FOUND');
    const ended = await callAs(t, 'POST', '/api/super/users/return', asEntered);
    expect(ended.statusCode).toBe(200);
    expect(ended.cookies).toHaveLength(0);
    expect(await lastAudit()).toMatchObject({
      action: 'user.leave',
      actorLogin: support.login,
      targetLabel: target.login,
    });
    expectError(await callAs(t, 'GET', '/api/account', asEntered), 401, 'UNAUTHORIZED');
    const back = await t.app.inject({
      method: 'GET',
      url: '/api/auth/refresh',
      headers: cookieHeader(support.refreshToken),
    });
    expect(back.statusCode).toBe(200);
    expect(decodeJwt(back.json().accessToken).login).toBe(support.login);
  });

  it('never reaches an owner or another staff account, nor a deleted or unknown one', async () => {
    const ownerId = await idOf(owner);
    expectError(await callAs(t, 'GET', `/api/super/users/enter?id=${ownerId}`, admin), 403, 'USER_PROTECTED');
    expectError(await callAs(t, 'GET', `/api/super/users/enter?id=${await idOf(admin)}`, owner), 403, 'USER_PROTECTED');
    expectError(
      await callAs(t, 'GET', `/api/super/users/enter?id=${await idOf(support)}`, admin),
      403,
      'USER_PROTECTED',
    );
    expectError(
      await callAs(t, 'GET', `/api/super/users/enter?id=${crypto.randomUUID()}`, admin),
      404,
      'USER_NOT_FOUND',
    );
    expectError(await callAs(t, 'GET', '/api/super/users/enter', admin), 400, 'VALIDATION_ERROR');
    const entries = await t.app.db.select().from(auditLog).where(eq(auditLog.targetId, ownerId));
    expect(entries).toHaveLength(0);
  });
});

describe('password reset', () => {
  it('mails the account a link to set a new password, audited', async () => {
    const target = await signUp(t);
    const before = t.outbox.length;
    const res = await callAs(t, 'POST', `/api/super/users/${await idOf(target)}/reset-password`, support);
    expect(res.statusCode).toBe(200);
    const mail = t.outbox.slice(before).find((m) => m.to === target.login);
    expect(mail?.link).toMatch(/\/password\/.+/);
    // Not the sign-in page's "someone asked": the account learns support sent it.
    expect(mail?.subject).toBe('LeadRelay: посилання для нового пароля');
    expect(mail?.text).toContain('Служба підтримки LeadRelay надіслала вам посилання');
    expect(await lastAudit()).toMatchObject({ action: 'user.reset-password', targetLabel: target.login });
    expectError(
      await callAs(t, 'POST', `/api/super/users/${await idOf(owner)}/reset-password`, admin),
      403,
      'USER_PROTECTED',
    );
  });
});

describe('changes', () => {
  it('changes active, expDate, plan and credit and records before and after', async () => {
    const target = await signUp(t);
    const id = await idOf(target);
    const res = await callAs(t, 'PATCH', `/api/super/users/${id}`, admin, {
      expDate: '2030-01-31',
      credit: 12.5,
      active: true,
    });
    expect(res.json()).toMatchObject({ expDate: '2030-01-31', credit: 12.5 });
    const audit = await lastAudit();
    expect(audit).toMatchObject({ action: 'user.update', targetId: id });
    expect(audit.details).toMatchObject({ credit: [0, 12.5], expDate: [expect.any(String), '2030-01-31'] });
    expectError(
      await callAs(t, 'PATCH', `/api/super/users/${id}`, admin, { plan: crypto.randomUUID() }),
      404,
      'PLAN_NOT_FOUND',
    );
    expectError(
      await callAs(t, 'PATCH', `/api/super/users/${id}`, admin, { expDate: '31.01.2030' }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(await callAs(t, 'PATCH', `/api/super/users/${id}`, admin, { password: 'x' }), 400, 'VALIDATION_ERROR');
  });

  it('refuses impossible dates and amounts that are not whole cents in bounds with 400, changing nothing', async () => {
    const target = await signUp(t);
    const id = await idOf(target);
    const before = (
      await callAs(t, 'PATCH', `/api/super/users/${id}`, admin, { credit: 7.25, expDate: '2031-05-01' })
    ).json();
    expect(before).toMatchObject({ credit: 7.25, expDate: '2031-05-01' });
    const hostile = [
      ...['2026-02-30', '2026-13-45', '0000-01-01', '2025-02-29', '2026-04-31', '9999-12-31', '275760-09-13'].map(
        (expDate) => ({ expDate }),
      ),
      ...['NaN', 'Infinity', '2026-02-30T00:00:00Z', ''].map((expDate) => ({ expDate })),
      ...[-0.01, -1_000_000, 0.001, 12.345, 1e308, 1_000_000.01, Number.MAX_SAFE_INTEGER].map((credit) => ({ credit })),
      ...['12.50', 'NaN', '1e3'].map((credit) => ({ credit })),
      // One bad field refuses the whole change.
      { active: false, credit: -5 },
    ];
    for (const body of hostile) {
      const res = await callAs(t, 'PATCH', `/api/super/users/${id}`, admin, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(['VALIDATION_ERROR', 'INVALID_TYPE'], JSON.stringify(body)).toContain(res.json().errors[0].code);
    }
    const after = (await callAs(t, 'PATCH', `/api/super/users/${id}`, admin, {})).json();
    expect(after).toMatchObject({ credit: 7.25, expDate: '2031-05-01', active: before.active });
    // The last day of a month, a leap day and no balance at all are real.
    for (const body of [{ expDate: '2028-02-29' }, { expDate: '2026-12-31' }, { credit: 0 }, { credit: 1_000_000 }])
      expect((await callAs(t, 'PATCH', `/api/super/users/${id}`, admin, body)).json()).toMatchObject(body);
  });

  it('lets only the owner grant or take staff roles; nobody changes the owner', async () => {
    const target = await signUp(t);
    const id = await idOf(target);
    expectError(await callAs(t, 'PATCH', `/api/super/users/${id}`, admin, { role: 'admin' }), 403, 'USER_PROTECTED');
    expectError(await callAs(t, 'PATCH', `/api/super/users/${id}`, owner, { role: 'owner' }), 403, 'USER_PROTECTED');
    expect((await callAs(t, 'PATCH', `/api/super/users/${id}`, owner, { role: 'support' })).json().role).toBe(
      'support',
    );
    // Now staff: an admin can no longer touch it.
    expectError(await callAs(t, 'PATCH', `/api/super/users/${id}`, admin, { role: 'client' }), 403, 'USER_PROTECTED');
    expect(await lastAudit()).toMatchObject({ action: 'user.update', details: { role: ['client', 'support'] } });
    const ownerId = await idOf(owner);
    expectError(
      await callAs(t, 'PATCH', `/api/super/users/${ownerId}`, admin, { active: false }),
      403,
      'USER_PROTECTED',
    );
    expectError(
      await callAs(t, 'PATCH', `/api/super/users/${ownerId}`, owner, { active: false }),
      403,
      'USER_PROTECTED',
    );
    expectError(await callAs(t, 'DELETE', `/api/super/users/${ownerId}`, admin), 403, 'USER_PROTECTED');
    expectError(
      await callAs(t, 'DELETE', `/api/super/users/${ownerId}/hard-delete`, owner, { confirm: owner.login }),
      403,
      'USER_PROTECTED',
    );
  });
});

describe('delete', () => {
  it('soft-deletes: the login no longer signs in, sessions end, the data stays', async () => {
    const target = await signUp(t);
    const id = await idOf(target);
    await createDestination(t.app.db, id);
    expect((await callAs(t, 'DELETE', `/api/super/users/${id}`, support)).statusCode).toBe(200);
    expectError(await callAs(t, 'GET', '/api/account', target), 401, 'UNAUTHORIZED');
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { login: target.login, password: PASSWORD },
    });
    expect(login.statusCode).toBe(401);
    expect(await lastAudit()).toMatchObject({ action: 'user.delete', targetId: id });
    const deleted = (
      await callAs(t, 'GET', `${LEGACY}?status=deleted&search=${encodeURIComponent(target.login)}`, admin)
    ).json();
    expect(deleted.data[0].deletedAt).not.toBeNull();
  });

  it('hard-deletes after the typed login: no row of any table keeps the account, the audit log excepted', async () => {
    const target = await signUp(t);
    const id = await idOf(target);
    const destination = await createDestination(t.app.db, id);
    const source = await createSource(t.app.db, id, { destinationIds: [destination] });
    await t.app.inject({ method: 'POST', url: source.url, payload: { name: 'Ivan', phone: '+380501234567' } });
    const referred = await signUp(t);
    await t.app.db.update(users).set({ referredBy: id }).where(eq(users.login, referred.login));
    // A table someone adds without a foreign key, naming the account by convention.
    await t.app.db.execute(sql`create table if not exists probe_without_fk (id serial primary key, account_id uuid)`);
    await t.app.db.execute(sql`insert into probe_without_fk (account_id) values (${id})`);

    expectError(
      await callAs(t, 'DELETE', `/api/super/users/${id}/hard-delete`, admin, { confirm: 'someone-else@example.com' }),
      400,
      'CONFIRMATION_MISMATCH',
    );
    expect(await holdersOf(id)).not.toEqual([]);
    const res = await callAs(t, 'DELETE', `/api/super/users/${id}/hard-delete`, admin, {
      confirm: target.login.toUpperCase(),
    });
    expect(res.statusCode).toBe(200);
    expect(await holdersOf(id)).toEqual([]);
    expect(await lastAudit()).toMatchObject({ action: 'user.hard-delete', targetId: id, targetLabel: target.login });
    expectError(
      await callAs(t, 'DELETE', `/api/super/users/${id}/hard-delete`, admin, { confirm: target.login }),
      404,
      'USER_NOT_FOUND',
    );
  });

  it('removes rows whose account is gone and answers what it removed', async () => {
    await t.app.db.execute(sql`create table if not exists probe_without_fk (id serial primary key, account_id uuid)`);
    await t.app.db.execute(
      sql`insert into probe_without_fk (account_id) values (${crypto.randomUUID()}), (${await idOf(client)})`,
    );
    const res = await callAs(t, 'DELETE', '/api/super/users/orphaned-documents', admin);
    expect(res.statusCode).toBe(200);
    expect(res.json().removed).toMatchObject({ 'probe_without_fk.account_id': 1 });
    expect(res.json().total).toBeGreaterThanOrEqual(1);
    const left = rowsOf(await t.app.db.execute(sql`select account_id from probe_without_fk`));
    expect(left).toEqual([{ account_id: await idOf(client) }]);
    expect(await lastAudit()).toMatchObject({ action: 'user.orphans' });
  });
});

/**
 * Every table.column in the database, known by name or not, holding the id: any uuid or text
 * column (foreign key or not). audit_log is the documented exception (docs/audit.md).
 */
async function holdersOf(id: string): Promise<string[]> {
  const columns = rowsOf<{ table_name: string; column_name: string }>(
    await t.app.db.execute(sql`
      select table_name, column_name from information_schema.columns
      where table_schema = current_schema() and data_type in ('uuid', 'text', 'character varying', 'jsonb')
        and table_name <> 'audit_log'`),
  );
  const found: string[] = [];
  for (const { table_name, column_name } of columns) {
    const rows = rowsOf(
      await t.app.db.execute(
        sql`select 1 from ${sql.identifier(table_name)} where ${sql.identifier(column_name)}::text like ${`%${id}%`} limit 1`,
      ),
    );
    if (rows.length) found.push(`${table_name}.${column_name}`);
  }
  return found;
}
