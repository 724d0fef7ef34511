// The guardian's `access` alert (issue 32) for a polled source whose sender refuses our credentials,
// through the API against an emulated sender (Prom.ua's, whose tokens can be revoked): one open
// alert however often the poll is refused, the reason in the sender's code, closed when the source
// reads again (a new token; a poll that reads), a new one for a new refusal, only the broken mail
// (never a second one), and nobody else's account sees it.
import { type PromEmulator, startPromEmulator } from '@leadrelay/connectors/promua/emulator';
import type { GuardianAlert } from '@leadrelay/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { guardianAlerts, integrations } from '../../db/schema';
import { closeAccessAlerts, openAccessAlerts } from '../../lib/access-alerts';
import { accountIdOf, createSource } from '../../test/routing-fixtures';
import { callAs, createTestApp, onUnlimitedPlan, type SignedInUser, signUp, type TestApp } from '../../test/test-app';
import { checkAccess } from './guardian-access';
import type { GuardianDeps } from './guardian-notify';

let t: TestApp;
let prom: PromEmulator;
let deps: GuardianDeps;
beforeAll(async () => {
  prom = await startPromEmulator();
  t = await createTestApp({ allowPrivateDestinations: true, crm: { promua: { apiUrl: prom.url } } });
  deps = { mailer: t.app.mailer, publicUrl: 'http://app.test', log: t.app.log, telegram: t.app.deps };
});
afterAll(async () => {
  await t?.close();
  await prom?.close();
});
beforeEach(() => prom.setFault(null));

interface Setup {
  user: SignedInUser;
  id: string;
  company: number;
  token: string;
}

async function connectedSource(): Promise<Setup> {
  const user = await onUnlimitedPlan(t, await signUp(t));
  const created = await callAs(t, 'POST', '/api/integrations', user, { type: 'promua', name: 'Замовлення Prom' });
  expect(created.statusCode, created.body).toBe(201);
  const s = { user, id: created.json()._id as string, ...prom.createCompany() };
  const res = await callAs(t, 'POST', `/api/integrations/${s.id}/connect`, user, { token: s.token });
  expect(res.statusCode, res.body).toBe(200);
  return s;
}
const pollNow = (s: Setup) => callAs(t, 'POST', `/api/integrations/${s.id}/source/poll`, s.user);
const listed = async (user: SignedInUser): Promise<GuardianAlert[]> => {
  const res = await callAs(t, 'GET', '/api/guardian/alerts', user);
  expect(res.statusCode).toBe(200);
  return res.json();
};
const rowsOf = (id: string) =>
  t.app.db
    .select()
    .from(guardianAlerts)
    .where(and(eq(guardianAlerts.integrationId, id), eq(guardianAlerts.kind, 'access')))
    .orderBy(guardianAlerts.openedAt);
const mailsTo = (login: string) => t.outbox.filter((m) => m.to === login);
const accessRun = () => t.app.db.transaction((tx) => checkAccess(deps, tx, new Date()));

describe("a polled source's refused access", () => {
  it('opens one alert however often the poll is refused, shows it only to the owner, and mails once', async () => {
    const s = await connectedSource();
    const mailsBefore = mailsTo(s.user.login).length;
    prom.revoke(s.token);
    await pollNow(s);
    await pollNow(s);
    await pollNow(s);

    const rows = await rowsOf(s.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ closedAt: null, reason: 'PROMUA_AUTH_FAILED: Invalid token' });

    const [alert, ...others] = await listed(s.user);
    expect(others).toEqual([]);
    expect(alert).toMatchObject({
      kind: 'access',
      integration: { _id: s.id, name: 'Замовлення Prom', type: 'promua' },
      connection: null,
      closedAt: null,
      silentSince: null,
      expiresAt: null,
    });
    // The connector's code, for the screen to say in the user's words.
    expect(alert!.reason?.code).toBe('PROMUA_AUTH_FAILED');

    // The owner got the broken-integration mail, which told the alert (no Telegram linked); the
    // guardian's run mails nobody again.
    expect(mailsTo(s.user.login).slice(mailsBefore)).toHaveLength(1);
    const told = (await rowsOf(s.id))[0]!.notifiedAt;
    expect(told).toBeInstanceOf(Date);
    expect(alert!.notifiedAt).toBe(told!.toISOString());
    await accessRun();
    await accessRun();
    expect(mailsTo(s.user.login).slice(mailsBefore)).toHaveLength(1);
    expect((await rowsOf(s.id))[0]!.notifiedAt).toEqual(told);

    // Another account sees none of it.
    const bob = await onUnlimitedPlan(t, await signUp(t));
    expect(await listed(bob)).toEqual([]);
  });

  it('closes when a new token is connected, and a new refusal is a new alert (the history keeps both)', async () => {
    const s = await connectedSource();
    prom.revoke(s.token);
    await pollNow(s);
    const fresh = prom.createToken(s.company);
    expect((await callAs(t, 'POST', `/api/integrations/${s.id}/connect`, s.user, { token: fresh })).statusCode).toBe(
      200,
    );
    const [first] = await rowsOf(s.id);
    expect(first!.closedAt).toBeInstanceOf(Date);
    expect((await listed(s.user)).map((a) => a.closedAt === null)).toEqual([false]);
    // A poll that reads changes nothing.
    await pollNow(s);
    expect(await rowsOf(s.id)).toHaveLength(1);

    prom.revoke(fresh);
    await pollNow(s);
    const rows = await rowsOf(s.id);
    expect(rows).toHaveLength(2);
    expect(rows.map((r) => r.closedAt === null)).toEqual([false, true]);
    const history = await listed(s.user);
    expect(history.map((a) => [a.kind, a.closedAt === null])).toEqual([
      ['access', true],
      ['access', false],
    ]);
  });

  it('closes when a poll reads again after a refusal the sender lifted', async () => {
    const s = await connectedSource();
    prom.setFault({ status: 401, times: 1 });
    await pollNow(s);
    expect((await rowsOf(s.id)).map((r) => r.closedAt)).toEqual([null]);
    expect((await t.app.db.select().from(integrations).where(eq(integrations.id, s.id)))[0]!.status).toBe('broken');
    await pollNow(s);
    const [row] = await rowsOf(s.id);
    expect(row!.closedAt).toBeInstanceOf(Date);
    expect((await t.app.db.select().from(integrations).where(eq(integrations.id, s.id)))[0]!.status).toBe('ok');
  });

  it('a poll the sender only throttles opens nothing', async () => {
    const s = await connectedSource();
    prom.setFault({ status: 429, times: 1, retryAfter: 1 });
    await pollNow(s);
    expect(await rowsOf(s.id)).toEqual([]);
  });
});

describe('the access alerts below the modules', () => {
  it('are for sources only, and the guardian closes one left open on a source that is healthy again', async () => {
    const user = await signUp(t);
    const accountId = await accountIdOf(t.app.db, user.login);
    const source = await createSource(t.app.db, accountId);
    const now = new Date();
    const opened = await openAccessAlerts(
      t.app.db,
      [
        { id: source.id, accountId, type: 'webhook' },
        // A destination is never an access alert (its broken state is its own).
        { id: source.id, accountId, type: 'http' },
      ],
      'AUTH: HTTP 401',
      now,
    );
    expect(opened).toEqual([source.id]);
    expect(await openAccessAlerts(t.app.db, [{ id: source.id, accountId, type: 'webhook' }], 'AUTH', now)).toEqual([]);
    // The source is ok (it never broke here): the guardian's run closes the alert.
    await accessRun();
    expect((await rowsOf(source.id)).map((r) => r.closedAt === null)).toEqual([false]);
    expect(await closeAccessAlerts(t.app.db, [source.id], now)).toBe(0);
  });
});
