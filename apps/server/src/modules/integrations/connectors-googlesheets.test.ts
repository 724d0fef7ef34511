// Google Sheets end to end against its emulator, through the generic routes its definition is
// served by: Google's consent and our callback (the state bound to the browser), the spreadsheets
// and sheets lists, the settings (a pasted address kept as the id), and the worker writing one row
// per lead; a refresh token Google refuses marks the integration "connect again" and the lead failed.
import { type SheetsEmulator, startSheetsEmulator } from '@leadrelay/connectors/googlesheets/emulator';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { deliveries, integrations } from '../../db/schema';
import { accountIdOf, createSource } from '../../test/routing-fixtures';
import {
  callAs,
  createTestApp,
  expectError,
  onUnlimitedPlan,
  type SignedInUser,
  signUp,
  type TestApp,
} from '../../test/test-app';

const LEADS = '1LeadsSpreadsheet2026xxxxxxxxxxxxxxxxxxxxx';
let t: TestApp;
let em: SheetsEmulator;
let alice: SignedInUser;
let bob: SignedInUser;

beforeAll(async () => {
  em = await startSheetsEmulator();
  t = await createTestApp({
    allowPrivateDestinations: true,
    crm: {
      googlesheets: {
        clientId: em.clientId,
        clientSecret: em.clientSecret,
        oauthUrl: `${em.url}/o/oauth2/v2/auth`,
        tokenUrl: `${em.url}/token`,
        apiUrl: em.url,
      },
    },
  });
  alice = await onUnlimitedPlan(t, await signUp(t));
  bob = await onUnlimitedPlan(t, await signUp(t));
});
afterAll(async () => {
  await t?.close();
  await em?.close();
});
beforeEach(() => em.reset());

async function sheetsIntegration(user: SignedInUser): Promise<string> {
  const res = await callAs(t, 'POST', '/api/integrations', user, { type: 'googlesheets', name: 'Leads', settings: {} });
  expect(res.statusCode).toBe(201);
  return res.json()._id;
}

/** The browser's trip: our start → Google's consent (the emulator) → our callback, with the start's cookie. */
async function consent(user: SignedInUser, id: string): Promise<string> {
  const start = await callAs(t, 'POST', `/api/integrations/${id}/oauth/start`, user, { locale: 'en' });
  expect(start.statusCode).toBe(200);
  const cookie = String(start.headers['set-cookie']).split(';')[0];
  const approved = await fetch(start.json().url, { redirect: 'manual' });
  const back = new URL(approved.headers.get('location')!);
  const res = await t.app.inject({ method: 'GET', url: `${back.pathname}${back.search}`, headers: { cookie } });
  expect(res.statusCode).toBe(302);
  return res.headers.location as string;
}

async function rowOf(id: string) {
  const [row] = await t.app.db.select().from(integrations).where(eq(integrations.id, id));
  return row!;
}

const settle = (user: SignedInUser, id: string, settings: Record<string, unknown>) =>
  callAs(t, 'PUT', `/api/admin/integration/${id}/connect`, user, { settings });

describe('Google Sheets connect and lists', () => {
  it('consent → callback stores sealed tokens; another account cannot start it; its lists answer from Google', async () => {
    const id = await sheetsIntegration(alice);
    expectError(await callAs(t, 'POST', `/api/integrations/${id}/oauth/start`, bob, {}), 404, 'INTEGRATION_NOT_FOUND');
    const connectedAt = Date.now();
    expect(await consent(alice, id)).toBe(`http://app.test/en/admin/integrations/googlesheets/${id}?connected=1`);
    const row = await rowOf(id);
    expect(JSON.stringify(row.auth)).not.toContain('1//emu-');
    const days = (row.credentialExpiresAt!.getTime() - connectedAt) / 86_400_000;
    expect(days).toBeGreaterThan(179.9);

    const lists = (list: string, user = alice) =>
      callAs(t, 'GET', `/api/integrations/${id}/googlesheets/lists/${list}`, user);
    expect((await lists('spreadsheets')).json()).toEqual([
      { id: LEADS, name: 'Ліди 2026' },
      { id: '1SalesReportSpreadsheetxxxxxxxxxxxxxxxxxxx', name: 'Sales report' },
    ]);
    expectError(await lists('spreadsheets', bob), 404, 'INTEGRATION_NOT_FOUND');
    expect((await lists('sheets')).json()).toEqual([]);

    // The address as copied from the browser is kept as the spreadsheet's id.
    const saved = await settle(alice, id, {
      spreadsheetId: `https://docs.google.com/spreadsheets/d/${LEADS}/edit#gid=0`,
    });
    expect(saved.statusCode).toBe(200);
    expect((await rowOf(id)).settings).toMatchObject({ spreadsheetId: LEADS });
    expect((await lists('sheets')).json()).toEqual([
      { sheetId: 0, title: 'Аркуш1' },
      { sheetId: 7, title: 'Архів' },
    ]);
  });

  it('refuses a spreadsheet address that is not one, and a header typed twice, storing nothing', async () => {
    const id = await sheetsIntegration(alice);
    await consent(alice, id);
    const bad = await settle(alice, id, { spreadsheetId: 'https://example.com/x y' });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toContain('SHEETS_SPREADSHEET_INVALID');
    const twice = await settle(alice, id, {
      spreadsheetId: LEADS,
      columns: [
        { name: 'Phone', from: 'phone' },
        { name: 'phone', from: 'email' },
      ],
    });
    expect(twice.statusCode).toBe(400);
    expect(JSON.stringify(twice.json())).toContain('SHEETS_COLUMN_DUPLICATE');
    expect((await rowOf(id)).settings).toEqual({ language: 'uk' });
  });
});

describe('Google Sheets delivery', () => {
  async function ready(): Promise<{ id: string; hook: string }> {
    const id = await sheetsIntegration(alice);
    await consent(alice, id);
    expect((await settle(alice, id, { spreadsheetId: LEADS, sheetId: 7 })).statusCode).toBe(200);
    const source = await createSource(t.app.db, await accountIdOf(t.app.db, alice.login), { destinationIds: [id] });
    return { id, hook: source.url };
  }
  const ingest = async (url: string, payload: Record<string, string>) => {
    const res = await t.app.inject({ method: 'POST', url, payload });
    expect(res.statusCode).toBe(202);
  };

  it('the worker writes the header, then one row per lead, and keeps the row’s range as the delivery’s id', async () => {
    const { id, hook } = await ready();
    await ingest(hook, { name: 'Olena', phone: '050 123 45 67', email: 'olena@example.com' });
    expect(await t.app.deliveryWorker.drain()).toBe(1);
    await ingest(hook, { name: 'Ivan', phone: '067 111 22 33' });
    expect(await t.app.deliveryWorker.drain()).toBe(1);
    const rows = em.rows(LEADS, 'Архів');
    expect(rows.map((r) => r.slice(1, 3))).toEqual([
      ['Ім’я', 'Телефон'],
      ['Olena', '+380501234567'],
      ['Ivan', '+380671112233'],
    ]);
    const done = await t.app.db.select().from(deliveries).where(eq(deliveries.destinationId, id));
    expect(done.map((d) => [d.status, d.externalId]).sort()).toEqual([
      ['delivered', "'Архів'!A2:G2"],
      ['delivered', "'Архів'!A3:G3"],
    ]);
    expect(rows[1]?.[0]).toBe(rows[1]?.[0]?.trim());
  });

  it('Google writes the row but its answer is lost: the worker’s retry finds the row and writes no second one', async () => {
    const { id, hook } = await ready();
    em.setFault({ status: 500, lose: true, path: ':append', times: 1 });
    await ingest(hook, { name: 'Olena', phone: '050 123 45 67' });
    await t.app.deliveryWorker.drain();
    const [pending] = await t.app.db.select().from(deliveries).where(eq(deliveries.destinationId, id));
    expect(pending!.status).toBe('pending');
    expect(em.rows(LEADS, 'Архів')).toHaveLength(2);
    // Its backoff passed: due again now.
    await t.app.db
      .update(deliveries)
      .set({ nextAttemptAt: new Date() })
      .where(and(eq(deliveries.destinationId, id), eq(deliveries.status, 'pending')));
    await t.app.deliveryWorker.drain();
    const [done] = await t.app.db.select().from(deliveries).where(eq(deliveries.destinationId, id));
    expect(done).toMatchObject({ status: 'delivered', externalId: "'Архів'!A2:G2" });
    expect(em.rows(LEADS, 'Архів')).toHaveLength(2);
    expect(em.requests.filter((r) => r.path.endsWith(':append'))).toHaveLength(1);
  });

  it('a refresh token Google refuses: the lead fails where a person sees it and the integration asks to connect again', async () => {
    const { id, hook } = await ready();
    em.revokeTokens();
    await ingest(hook, { name: 'Olena', phone: '050 123 45 67' });
    await t.app.deliveryWorker.drain();
    expect(em.rows(LEADS, 'Архів')).toEqual([]);
    const [d] = await t.app.db.select().from(deliveries).where(eq(deliveries.destinationId, id));
    expect(d!.status).toBe('failed');
    expect(d!.lastError).toMatch(/^SHEETS_REFRESH_FAILED/);
    // The destination is marked broken by the worker's event, right after the delivery is stored.
    const row = await vi.waitFor(async () => {
      const r = await rowOf(id);
      expect(r.status).toBe('broken');
      return r;
    });
    expect(row.statusReason).toMatch(/^SHEETS_REFRESH_FAILED/);
    const shown = (await callAs(t, 'GET', `/api/integrations/${id}`, alice)).json();
    expect(JSON.stringify(shown)).toContain('broken_auth');
  });
});
