import type { Plan } from '@leadrelay/shared';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leads, plans, users } from '../../db/schema';
import { accountIdOf, createDestination, createSource } from '../../test/routing-fixtures';
import {
  callAs,
  createTestApp,
  errorOf,
  expectError,
  type Method,
  type SignedInUser,
  signUp,
  signUpStaff,
  type TestApp,
} from '../../test/test-app';
import { seedPlans } from './plans.service';

let t: TestApp;
let client: SignedInUser;
let admin: SignedInUser;
beforeAll(async () => {
  t = await createTestApp();
  client = await signUp(t);
  admin = await signUp(t);
  await t.app.db.update(users).set({ role: 'owner' }).where(eq(users.login, admin.login));
});
afterAll(() => t.close());

const call = (method: Method, url: string, user: SignedInUser | null, payload?: unknown) =>
  callAs(t, method, url, user, payload);

const MISSING = '00000000-0000-4000-8000-000000000000';
type ApiPlan = Plan;

const body = (over: Record<string, unknown> = {}) => ({
  title: { uk: 'Тест', en: 'Test' },
  monthlyAmount: 19.99,
  annualAmount: 199.9,
  limits: { leadsPerMonth: 1000, integrations: 5, destinationsPerSource: null },
  ...over,
});

const list = async (user: SignedInUser = client): Promise<ApiPlan[]> => {
  const res = await call('GET', '/api/plans', user);
  expect(res.statusCode).toBe(200);
  return res.json();
};

async function create(over: Record<string, unknown> = {}): Promise<ApiPlan> {
  const res = await call('POST', '/api/plans', admin, body(over));
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** Plans these tests made, removed after each group so the seeded three stay what the list shows. */
async function removePlans(ids: string[]) {
  await t.app.db.update(users).set({ planId: null }).where(inArray(users.planId, ids));
  await t.app.db.delete(plans).where(inArray(plans.id, ids));
}

describe('seed', () => {
  it('gives a fresh database three plans, cheapest first, annual about ten months', async () => {
    const seeded = await list();
    expect(seeded.map((p) => p.title)).toEqual([
      { uk: 'Старт', en: 'Start' },
      { uk: 'Бізнес', en: 'Business' },
      { uk: 'Про', en: 'Pro' },
    ]);
    expect(seeded[0]).toMatchObject({
      monthlyAmount: 9,
      annualAmount: 90,
      active: true,
      limits: { leadsPerMonth: 500, integrations: 3, destinationsPerSource: 2 },
    });
    expect(seeded[2]).toMatchObject({
      limits: { leadsPerMonth: null, integrations: null, destinationsPerSource: null },
    });
  });

  it('runs once per database: a deleted seeded plan does not come back on the next start', async () => {
    const [start] = await list();
    expect((await call('DELETE', `/api/plans/${start!._id}`, admin)).statusCode).toBe(200);
    expect(await seedPlans(t.app.db)).toBe(false);
    expect((await list()).map((p) => p.title.en)).toEqual(['Business', 'Pro']);
    // Put one back for the groups below (as an operator would: a new plan).
    await create({ title: start!.title, monthlyAmount: 9, annualAmount: 90, limits: start!.limits });
  });
});

describe('reading', () => {
  it('sorts active plans by annual price, then the inactive ones', async () => {
    const dear = await create({ title: { uk: 'Дорогий', en: 'Dear' }, annualAmount: 5000 });
    const cheapOff = await create({ title: { uk: 'Дешевий', en: 'Cheap off' }, annualAmount: 1, active: false });
    const midOff = await create({ title: { uk: 'Середній', en: 'Mid off' }, annualAmount: 100 });
    await call('PUT', `/api/plans/${midOff._id}/toggle`, admin);
    try {
      const titles = (await list()).map((p) => `${p.title.en}:${p.annualAmount}:${p.active}`);
      expect(titles).toEqual([
        'Start:90:true',
        'Business:290:true',
        'Pro:790:true',
        'Dear:5000:true',
        'Cheap off:1:false',
        'Mid off:100:false',
      ]);
    } finally {
      await removePlans([dear._id, cheapOff._id, midOff._id]);
    }
  });

  it('is for signed-in users only', async () => {
    expectError(await call('GET', '/api/plans', null), 401, 'UNAUTHORIZED');
    expectError(await call('GET', '/api/legacy/api/plans/limits', null), 401, 'UNAUTHORIZED');
  });
});

describe('changing plans', () => {
  it('refuses every write to a client and to staff below the owner with 403, and nothing changes', async () => {
    const [plan] = await list();
    const before = await list();
    const support = await signUpStaff(t);
    for (const user of [client, support]) {
      expectError(await call('POST', '/api/plans', user, body()), 403, 'FORBIDDEN');
      expectError(await call('PUT', `/api/plans/${plan!._id}`, user, { annualAmount: 1 }), 403, 'FORBIDDEN');
      expectError(await call('PUT', `/api/plans/${plan!._id}/toggle`, user), 403, 'FORBIDDEN');
      expectError(await call('DELETE', `/api/plans/${plan!._id}`, user), 403, 'FORBIDDEN');
    }
    expectError(await call('POST', '/api/plans', null, body()), 401, 'UNAUTHORIZED');
    expect(await list()).toEqual(before);
  });

  it('lets the owner (the operator) create, update, toggle and delete a plan', async () => {
    const created = await create({ title: { uk: '  Команда ', en: 'Team  ' } });
    expect(created).toMatchObject({
      title: { uk: 'Команда', en: 'Team' },
      monthlyAmount: 19.99,
      annualAmount: 199.9,
      active: true,
      limits: { leadsPerMonth: 1000, integrations: 5, destinationsPerSource: null },
    });
    const [row] = await t.app.db.select().from(plans).where(eq(plans.id, created._id));
    expect([row!.monthlyCents, row!.annualCents]).toEqual([1999, 19990]);

    const updated = await call('PUT', `/api/plans/${created._id}`, admin, {
      annualAmount: 150,
      limits: { leadsPerMonth: null, integrations: 7, destinationsPerSource: 3 },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({
      title: { en: 'Team' },
      monthlyAmount: 19.99,
      annualAmount: 150,
      limits: { leadsPerMonth: null, integrations: 7, destinationsPerSource: 3 },
    });
    expect((await list()).find((p) => p._id === created._id)).toMatchObject({ annualAmount: 150 });

    const off = await call('PUT', `/api/plans/${created._id}/toggle`, admin);
    expect(off.json()).toMatchObject({ _id: created._id, active: false });
    const on = await call('PUT', `/api/plans/${created._id}/toggle`, admin);
    expect(on.json().active).toBe(true);

    expect((await call('DELETE', `/api/plans/${created._id}`, admin)).json()).toEqual({ success: true });
    expect((await list()).some((p) => p._id === created._id)).toBe(false);
    expectError(await call('DELETE', `/api/plans/${created._id}`, admin), 404, 'PLAN_NOT_FOUND');
  });

  it('refuses to delete a plan an account has, but still switches it off', async () => {
    const plan = await create({ title: { uk: 'Зайнятий', en: 'Taken' } });
    const holder = await signUp(t);
    await t.app.db.update(users).set({ planId: plan._id }).where(eq(users.login, holder.login));
    try {
      expectError(await call('DELETE', `/api/plans/${plan._id}`, admin), 409, 'PLAN_IN_USE');
      expect((await list()).some((p) => p._id === plan._id)).toBe(true);
      const off = await call('PUT', `/api/plans/${plan._id}/toggle`, admin);
      expect(off.json().active).toBe(false);
      expect((await list()).find((p) => p._id === plan._id)?.active).toBe(false);
      // A soft-deleted account keeps its row and its plan: the plan is still in use.
      await t.app.db.update(users).set({ deletedAt: new Date() }).where(eq(users.login, holder.login));
      expectError(await call('DELETE', `/api/plans/${plan._id}`, admin), 409, 'PLAN_IN_USE');
    } finally {
      await removePlans([plan._id]);
    }
  });

  it('answers 404 for an unknown or malformed id', async () => {
    for (const id of [MISSING, 'not-a-uuid', '123']) {
      expectError(await call('PUT', `/api/plans/${id}`, admin, { annualAmount: 1 }), 404, 'PLAN_NOT_FOUND');
      expectError(await call('PUT', `/api/plans/${id}/toggle`, admin), 404, 'PLAN_NOT_FOUND');
      expectError(await call('DELETE', `/api/plans/${id}`, admin), 404, 'PLAN_NOT_FOUND');
    }
  });
});

describe('bad input', () => {
  const bad = async (payload: unknown, field: string, code = 'VALIDATION_ERROR') => {
    const res = await call('POST', '/api/plans', admin, payload);
    expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    expect(errorOf(res).errors, JSON.stringify(payload)).toContainEqual({ field, code });
  };

  it('refuses a bad plan with 400 and the field at fault, creating nothing', async () => {
    const before = (await list()).length;
    await bad(body({ monthlyAmount: -1 }), 'monthlyAmount');
    await bad(body({ annualAmount: -0.01 }), 'annualAmount');
    await bad(body({ annualAmount: 10.001 }), 'annualAmount');
    await bad(body({ annualAmount: '100' }), 'annualAmount', 'INVALID_TYPE');
    for (const amount of [0.001, 1e308, 1_000_000.01, -1e308])
      await bad(body({ monthlyAmount: amount }), 'monthlyAmount');
    await bad(body({ title: { uk: '', en: 'X' } }), 'title.uk', 'REQUIRED');
    await bad(body({ title: { uk: 'Х', en: '   ' } }), 'title.en', 'REQUIRED');
    await bad(body({ title: { uk: 'Х' } }), 'title.en', 'REQUIRED');
    await bad(body({ title: { uk: 'Х', en: 'x'.repeat(101) } }), 'title.en', 'MAX_LENGTH_100');
    await bad(body({ title: { uk: 'Х', en: 'X', de: 'X' } }), 'title.de');
    await bad(
      body({ limits: { leadsPerMonth: 0, integrations: 1, destinationsPerSource: 1 } }),
      'limits.leadsPerMonth',
    );
    await bad(
      body({ limits: { leadsPerMonth: 10, integrations: 1.5, destinationsPerSource: 1 } }),
      'limits.integrations',
      'INTEGER',
    );
    await bad(body({ limits: { leadsPerMonth: 10, integrations: 1 } }), 'limits.destinationsPerSource', 'REQUIRED');
    await bad(body({ discount: 10 }), 'discount');
    const { title: _title, ...untitled } = body();
    await bad(untitled, 'title', 'REQUIRED');
    expect((await list()).length).toBe(before);
  });

  it('refuses a bad update with 400 and leaves the plan as it was', async () => {
    const [plan] = await list();
    for (const payload of [{ monthlyAmount: -5 }, { title: { uk: '', en: '' } }, { active: false }, { limits: null }]) {
      const res = await call('PUT', `/api/plans/${plan!._id}`, admin, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect((await list())[0]).toEqual(plan);
  });
});

describe('GET /api/legacy/api/plans/limits', () => {
  it('gives a demo account the demo limits and zero usage', async () => {
    const fresh = await signUp(t);
    const res = await call('GET', '/api/legacy/api/plans/limits', fresh);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      planId: null,
      demo: true,
      limits: { leadsPerMonth: 3000, integrations: 10, destinationsPerSource: 5 },
      usage: { leadsThisMonth: 0, integrations: 0, destinationsPerSource: 0 },
    });
  });

  it('gives an account with a plan that plan’s limits and counts its own usage', async () => {
    const plan = await create({
      title: { uk: 'Ліміти', en: 'Limits' },
      limits: { leadsPerMonth: 50, integrations: null, destinationsPerSource: 4 },
    });
    const owner = await signUp(t);
    const other = await signUp(t);
    const accountId = await accountIdOf(t.app.db, owner.login);
    await t.app.db.update(users).set({ planId: plan._id }).where(eq(users.id, accountId));
    try {
      const crm = await createDestination(t.app.db, accountId);
      const sms = await createDestination(t.app.db, accountId, { name: 'SMS' });
      const mail = await createDestination(t.app.db, accountId, { name: 'Mail' });
      const wide = await createSource(t.app.db, accountId, { destinationIds: [crm, sms, mail] });
      await createSource(t.app.db, accountId, { destinationIds: [crm] });
      for (const name of ['Olena', 'Petro']) {
        const res = await t.app.inject({ method: 'POST', url: wide.url, payload: { name, phone: '0501234567' } });
        expect(res.statusCode, res.body).toBe(202);
      }
      // A lead of last month does not count towards this one.
      const now = new Date();
      const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1) - 1000);
      await t.app.db
        .insert(leads)
        .values([
          { accountId, integrationId: wide.id, fields: { name: 'Old', custom: {} }, raw: {}, createdAt: lastMonth },
        ]);
      // Another account's integrations and leads are not this one's.
      const otherId = await accountIdOf(t.app.db, other.login);
      const foreign = await createSource(t.app.db, otherId, {
        destinationIds: await Promise.all([1, 2, 3, 4, 5, 6].map(() => createDestination(t.app.db, otherId))),
      });
      await t.app.inject({ method: 'POST', url: foreign.url, payload: { name: 'Someone else' } });

      const res = await call('GET', '/api/legacy/api/plans/limits', owner);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        planId: plan._id,
        demo: false,
        limits: { leadsPerMonth: 50, integrations: null, destinationsPerSource: 4 },
        usage: { leadsThisMonth: 2, integrations: 5, destinationsPerSource: 3 },
      });
      // The plan's new limits show at once; a switched-off plan still holds for those who have it.
      await call('PUT', `/api/plans/${plan._id}`, admin, {
        limits: { leadsPerMonth: 60, integrations: 9, destinationsPerSource: 4 },
      });
      await call('PUT', `/api/plans/${plan._id}/toggle`, admin);
      const after = (await call('GET', '/api/legacy/api/plans/limits', owner)).json();
      expect(after.limits).toEqual({ leadsPerMonth: 60, integrations: 9, destinationsPerSource: 4 });
    } finally {
      await removePlans([plan._id]);
    }
  });
});

describe("the plan's limits on what an account creates", () => {
  it('refuses the integration past the plan, and a source list growing past it, with the keys the web turns into an upgrade prompt', async () => {
    const plan = await create({
      limits: { leadsPerMonth: 100, integrations: 4, destinationsPerSource: 2 },
    });
    const owner = await signUp(t);
    const accountId = await accountIdOf(t.app.db, owner.login);
    await t.app.db.update(users).set({ planId: plan._id }).where(eq(users.id, accountId));
    const make = (body: Record<string, unknown>) => call('POST', '/api/integrations', owner, body);
    const http = (name: string) => ({ type: 'http', name, settings: { url: 'https://crm.example.com/hook' } });

    const ids: string[] = [];
    for (const name of ['A', 'B', 'C']) {
      const res = await make(http(name));
      expect(res.statusCode, res.body).toBe(201);
      ids.push(res.json()._id);
    }
    // Three destinations for one source: over the plan's two.
    expectError(await make({ type: 'webhook', name: 'Form', destination: ids }), 403, 'PLAN_LIMIT_DESTINATIONS');
    const source = await make({ type: 'webhook', name: 'Form', destination: ids.slice(0, 2) });
    expect(source.statusCode, source.body).toBe(201);
    // Four integrations: the fifth is refused and nothing is written.
    expectError(await make(http('D')), 403, 'PLAN_LIMIT_INTEGRATIONS');
    const limits = (await call('GET', '/api/legacy/api/plans/limits', owner)).json();
    expect(limits.usage).toMatchObject({ integrations: 4, destinationsPerSource: 2 });

    const sourceId = source.json()._id;
    const legacy = '/api/legacy/api/admin/integration';
    expectError(
      await call('PUT', `${legacy}/${sourceId}/addDestination`, owner, { destination: ids[2] }),
      403,
      'PLAN_LIMIT_DESTINATIONS',
    );
    // A list that does not grow stays editable (an account moved to a smaller plan keeps working).
    const same = await call('PUT', `/api/integrations/${sourceId}/update`, owner, { destination: [ids[1], ids[0]] });
    expect(same.statusCode, same.body).toBe(200);

    // A bigger plan lifts the limits at once.
    await t.app.db.update(users).set({ planId: null }).where(eq(users.id, accountId));
    expect((await make(http('D'))).statusCode).toBe(201);
    expect((await call('PUT', `${legacy}/${sourceId}/addDestination`, owner, { destination: ids[2] })).statusCode).toBe(
      200,
    );
  });

  it('lets only one of two creates at once take the last free place', async () => {
    const plan = await create({ limits: { leadsPerMonth: 100, integrations: 1, destinationsPerSource: 1 } });
    const owner = await signUp(t);
    await t.app.db.update(users).set({ planId: plan._id }).where(eq(users.login, owner.login));
    const results = await Promise.all(
      ['A', 'B', 'C'].map((name) => call('POST', '/api/integrations', owner, { type: 'webhook', name })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 403, 403]);
  });
});
