import { asc, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, catalogueShippedDestinations, integrationSettings } from '../../db/schema';
import {
  callAs,
  createTestApp,
  expectError,
  type Method,
  type SignedInUser,
  signUp,
  signUpStaff,
  type TestApp,
} from '../../test/test-app';
import { seedCatalogue } from './catalogue.service';

let t: TestApp;
let client: SignedInUser;
let admin: SignedInUser;
beforeAll(async () => {
  t = await createTestApp();
  client = await signUp(t);
  admin = await signUpStaff(t);
});
afterAll(() => t.close());

const call = (method: Method, url: string, user: SignedInUser | null, payload?: unknown) =>
  callAs(t, method, url, user, payload);

const base = '/api/legacy/api/admin/integration';
const MISSING = '00000000-0000-4000-8000-000000000000';
const slugsOf = (list: { slug: string }[]) => list.map((s) => s.slug).sort();

describe('settings (integration types)', () => {
  it('shows clients only the types they can create', async () => {
    const res = await call('GET', `${base}/settings`, client);
    expect(res.statusCode).toBe(200);
    // Types with a connector, webhook (built into ingest) and facebook (the facebook module).
    expect(slugsOf(res.json())).toEqual(
      [
        'alfasms',
        'amocrm',
        'bitrix24',
        'facebook',
        'ga',
        'googleads',
        'googlesheets',
        'horoshop',
        'http',
        'keycrm',
        'pipedrive',
        'promua',
        'sendpulse',
        'telegram',
        'tiktok',
        'uspacy',
        'webhook',
      ].sort(),
    );
    const webhook = res.json().find((s: { slug: string }) => s.slug === 'webhook');
    expect(webhook).toMatchObject({
      name: 'Webhook',
      kind: 'source',
      hidden: false,
      available: true,
      category: { name: 'Sources' },
      tags: expect.arrayContaining(['forms']),
    });
    expect(webhook.destinations.map((d: { slug: string }) => d.slug)).toEqual([
      'amocrm',
      'pipedrive',
      'uspacy',
      'bitrix24',
      'keycrm',
      'alfasms',
      'ga',
      'googlesheets',
      'sendpulse',
      'http',
      'telegram',
    ]);
  });

  it('shows privileged users every type, hidden ones marked', async () => {
    const res = await call('GET', `${base}/settings`, admin);
    expect(slugsOf(res.json())).toEqual(
      [
        'alfasms',
        'amocrm',
        'bitrix24',
        'facebook',
        'ga',
        'googleads',
        'googlesheets',
        'horoshop',
        'http',
        'keycrm',
        'parser',
        'pipedrive',
        'promua',
        'sendpulse',
        'telegram',
        'tiktok',
        'uspacy',
        'webhook',
      ].sort(),
    );
    // The e-mail parser works, but it is a staff feature with screens and calls of its own
    // (/admin/parsers): listed hidden, so the integrations screens never offer it.
    const parser = res.json().find((s: { slug: string }) => s.slug === 'parser');
    expect(parser).toMatchObject({ hidden: true, available: true, kind: 'source', category: { name: 'Sources' } });
    const one = await call('GET', `${base}/settings/${parser._id}`, admin);
    expect(one.json().slug).toBe('parser');
    expectError(await call('GET', `${base}/settings/${parser._id}`, client), 404, 'SETTING_NOT_FOUND');
    // Uspacy shows as soon as its connector exists.
    expect(res.json().find((s: { slug: string }) => s.slug === 'uspacy')).toMatchObject({
      hidden: false,
      available: true,
    });
  });

  it('seeds idempotently and keeps operators’ edits', async () => {
    const list = (await call('GET', `${base}/settings`, admin)).json();
    const webhook = list.find((s: { slug: string }) => s.slug === 'webhook');
    const edited = await call('PUT', `${base}/settings/${webhook._id}`, admin, { name: 'Site forms', tags: ['x'] });
    expect(edited.json()).toMatchObject({ name: 'Site forms', tags: ['x'] });
    await seedCatalogue(t.app.db);
    await seedCatalogue(t.app.db);
    const after = (await call('GET', `${base}/settings`, admin)).json();
    expect(after).toHaveLength(list.length);
    expect(after.find((s: { slug: string }) => s.slug === 'webhook')).toMatchObject({
      name: 'Site forms',
      tags: ['x'],
    });
    await call('PUT', `${base}/settings/${webhook._id}`, admin, { name: 'Webhook', tags: ['forms', 'api'] });
  });

  it('offers a newly shipped destination type to every source once, and keeps an operator removing it', async () => {
    const destinationsOf = async (slug: string) =>
      (
        await t.app.db
          .select({ d: integrationSettings.destinations })
          .from(integrationSettings)
          .where(eq(integrationSettings.slug, slug))
      )[0]?.d ?? [];
    const withoutTelegram = async (slug: string) =>
      t.app.db
        .update(integrationSettings)
        .set({ destinations: (await destinationsOf(slug)).filter((d) => d !== 'telegram') })
        .where(eq(integrationSettings.slug, slug));
    // An install from before Telegram shipped: no source lists it and it was never offered.
    await withoutTelegram('webhook');
    await withoutTelegram('facebook');
    await t.app.db.delete(catalogueShippedDestinations).where(eq(catalogueShippedDestinations.slug, 'telegram'));

    await Promise.all([seedCatalogue(t.app.db), seedCatalogue(t.app.db)]);
    expect((await destinationsOf('webhook')).filter((d) => d === 'telegram')).toEqual(['telegram']);
    expect(await destinationsOf('facebook')).toContain('telegram');

    // The operator takes it away from one source: later starts do not bring it back.
    await withoutTelegram('facebook');
    await seedCatalogue(t.app.db);
    expect(await destinationsOf('facebook')).not.toContain('telegram');
    expect(await destinationsOf('webhook')).toContain('telegram');
    await t.app.db
      .update(integrationSettings)
      .set({ destinations: [...(await destinationsOf('facebook')), 'telegram'] })
      .where(eq(integrationSettings.slug, 'facebook'));
  });

  it('lets an operator hide a type: clients no longer see or create it', async () => {
    const http = (await call('GET', `${base}/settings`, admin)).json().find((s: { slug: string }) => s.slug === 'http');
    await call('PUT', `${base}/settings/${http._id}`, admin, { hidden: true });
    try {
      expect(slugsOf((await call('GET', `${base}/settings`, client)).json())).toEqual([
        'alfasms',
        'amocrm',
        'bitrix24',
        'facebook',
        'ga',
        'googleads',
        'googlesheets',
        'horoshop',
        'keycrm',
        'pipedrive',
        'promua',
        'sendpulse',
        'telegram',
        'tiktok',
        'uspacy',
        'webhook',
      ]);
      expectError(
        await call('POST', '/api/integrations', client, {
          type: 'http',
          name: 'x',
          settings: { url: 'https://example.com' },
        }),
        400,
        'INTEGRATION_TYPE_UNKNOWN',
      );
    } finally {
      await call('PUT', `${base}/settings/${http._id}`, admin, { hidden: false });
    }
  });

  it('creates, updates and deletes a type (privileged)', async () => {
    const created = await call('POST', `${base}/settings`, admin, {
      slug: 'kommo',
      name: 'Kommo',
      kind: 'destination',
      tags: ['crm'],
    });
    expect(created.statusCode).toBe(201);
    // No connector: hidden whatever the flag says.
    expect(created.json()).toMatchObject({ slug: 'kommo', hidden: true, available: false, destinations: [] });
    expectError(
      await call('POST', `${base}/settings`, admin, { slug: 'kommo', name: 'Again', kind: 'destination' }),
      409,
      'SLUG_TAKEN',
    );
    const updated = await call('PUT', `${base}/settings/${created.json()._id}`, admin, { name: 'Kommo CRM' });
    expect(updated.json().name).toBe('Kommo CRM');
    expect((await call('DELETE', `${base}/settings/${created.json()._id}`, admin)).json()).toEqual({ success: true });
    expectError(await call('GET', `${base}/settings/${created.json()._id}`, admin), 404, 'SETTING_NOT_FOUND');
    const [row] = await t.app.db.select().from(integrationSettings).where(eq(integrationSettings.slug, 'kommo'));
    expect(row).toBeUndefined();
  });

  it('refuses bad type bodies and ids', async () => {
    const post = (body: unknown) => call('POST', `${base}/settings`, admin, body);
    expectError(await post({ name: 'x', kind: 'source' }), 400, 'REQUIRED');
    expectError(await post({ slug: 'Bad Slug', name: 'x', kind: 'source' }), 400, 'VALIDATION_ERROR');
    expectError(await post({ slug: 'ok', name: 'x', kind: 'sideways' }), 400, 'VALIDATION_ERROR');
    expectError(await post({ slug: 'ok', name: 'x', kind: 'source', hidden: 'no' }), 400, 'INVALID_TYPE');
    expectError(await post({ slug: 'ok', name: 'x', kind: 'source', categoryId: MISSING }), 404, 'CATEGORY_NOT_FOUND');
    for (const id of [MISSING, 'nope']) {
      expectError(await call('PUT', `${base}/settings/${id}`, admin, { name: 'x' }), 404, 'SETTING_NOT_FOUND');
      expectError(await call('DELETE', `${base}/settings/${id}`, admin), 404, 'SETTING_NOT_FOUND');
      expectError(await call('GET', `${base}/settings/${id}`, client), 404, 'SETTING_NOT_FOUND');
    }
    const any = (await call('GET', `${base}/settings`, admin)).json()[0];
    expectError(await call('PUT', `${base}/settings/${any._id}`, admin, { slug: 'changed' }), 400, 'VALIDATION_ERROR');
  });
});

describe('categories', () => {
  it('CRUD for privileged users, read for clients', async () => {
    const seeded = (await call('GET', `${base}/categories`, client)).json();
    expect(seeded.map((c: { name: string }) => c.name)).toEqual([
      'Sources',
      'CRM',
      'Messaging',
      'Analytics',
      'Webhooks',
    ]);
    const created = await call('POST', `${base}/categories`, admin, { name: 'Shops', order: 9 });
    expect(created.statusCode).toBe(201);
    const id = created.json()._id;
    expect((await call('GET', `${base}/categories/${id}`, client)).json()).toEqual({
      _id: id,
      name: 'Shops',
      order: 9,
    });
    expect((await call('PUT', `${base}/categories/${id}`, admin, { name: 'Stores' })).json().name).toBe('Stores');
    expect((await call('DELETE', `${base}/categories/${id}`, admin)).statusCode).toBe(200);
    expectError(await call('GET', `${base}/categories/${id}`, client), 404, 'CATEGORY_NOT_FOUND');
    expectError(await call('GET', `${base}/categories/x`, client), 404, 'CATEGORY_NOT_FOUND');
    expectError(await call('POST', `${base}/categories`, admin, { name: '' }), 400, 'REQUIRED');
    expectError(await call('POST', `${base}/categories`, admin, { name: 'x', order: -1 }), 400, 'VALIDATION_ERROR');
  });

  it('keeps the types of a deleted category, without a category', async () => {
    const cat = (await call('POST', `${base}/categories`, admin, { name: 'Temp' })).json();
    const type = (
      await call('POST', `${base}/settings`, admin, {
        slug: 'temp-type',
        name: 'T',
        kind: 'source',
        categoryId: cat._id,
      })
    ).json();
    expect(type.category).toEqual({ _id: cat._id, name: 'Temp' });
    await call('DELETE', `${base}/categories/${cat._id}`, admin);
    expect((await call('GET', `${base}/settings/${type._id}`, admin)).json().category).toBeNull();
    await call('DELETE', `${base}/settings/${type._id}`, admin);
  });
});

describe('modules', () => {
  it('creates modules in order, sorts them and shows them on the type', async () => {
    const webhook = (await call('GET', `${base}/settings`, admin))
      .json()
      .find((s: { slug: string }) => s.slug === 'webhook');
    const names = ['Connect', 'Mapping', 'Filters'];
    const ids: string[] = [];
    for (const name of names) {
      const res = await call('POST', `${base}/modules`, admin, { settingId: webhook._id, name });
      expect(res.statusCode).toBe(201);
      ids.push(res.json()._id);
    }
    const listed = (await call('GET', `${base}/modules?settingId=${webhook._id}`, client)).json();
    expect(listed.map((m: { name: string; order: number }) => [m.name, m.order])).toEqual([
      ['Connect', 0],
      ['Mapping', 1],
      ['Filters', 2],
    ]);
    const sorted = await call('POST', '/api/admin/integration/modules/sort', admin, { ids: [ids[2], ids[0], ids[1]] });
    expect(sorted.json().map((m: { name: string }) => m.name)).toEqual(['Filters', 'Connect', 'Mapping']);
    const type = (await call('GET', `${base}/settings/${webhook._id}`, client)).json();
    expect(type.modules.map((m: { name: string; order: number }) => [m.name, m.order])).toEqual([
      ['Filters', 0],
      ['Connect', 1],
      ['Mapping', 2],
    ]);
    const renamed = await call('PUT', `${base}/modules/${ids[0]}`, admin, { name: 'Connection', slug: 'connect' });
    expect(renamed.json()).toMatchObject({ name: 'Connection', slug: 'connect' });
    expect((await call('GET', `${base}/modules/${ids[0]}`, client)).json().name).toBe('Connection');
    for (const id of ids) expect((await call('DELETE', `${base}/modules/${id}`, admin)).statusCode).toBe(200);
    expect((await call('GET', `${base}/modules?settingId=${webhook._id}`, client)).json()).toEqual([]);
  });

  it('refuses bad module bodies and ids', async () => {
    expectError(await call('POST', `${base}/modules`, admin, { name: 'x' }), 400, 'REQUIRED');
    expectError(
      await call('POST', `${base}/modules`, admin, { settingId: MISSING, name: 'x' }),
      404,
      'SETTING_NOT_FOUND',
    );
    expectError(await call('POST', `${base}/modules`, admin, { settingId: 'bad', name: 'x' }), 400, 'VALIDATION_ERROR');
    expectError(await call('GET', `${base}/modules/${MISSING}`, admin), 404, 'MODULE_NOT_FOUND');
    expectError(await call('PUT', `${base}/modules/bad`, admin, { name: 'x' }), 404, 'MODULE_NOT_FOUND');
    expectError(await call('DELETE', `${base}/modules/bad`, admin), 404, 'MODULE_NOT_FOUND');
    expectError(
      await call('POST', '/api/admin/integration/modules/sort', admin, { ids: [MISSING] }),
      404,
      'MODULE_NOT_FOUND',
    );
    expectError(await call('POST', '/api/admin/integration/modules/sort', admin, { ids: [] }), 400, 'VALIDATION_ERROR');
    expectError(
      await call('POST', '/api/admin/integration/modules/sort', admin, { ids: ['x'] }),
      400,
      'VALIDATION_ERROR',
    );
    expect((await call('GET', `${base}/modules?settingId=nope`, client)).json()).toEqual([]);
  });
});

describe('access', () => {
  it('refuses every catalogue change to clients (403) and everything to anonymous callers (401)', async () => {
    const changes: [Method, string, unknown][] = [
      ['POST', `${base}/categories`, { name: 'x' }],
      ['PUT', `${base}/categories/${MISSING}`, { name: 'x' }],
      ['DELETE', `${base}/categories/${MISSING}`, undefined],
      ['POST', `${base}/modules`, { settingId: MISSING, name: 'x' }],
      ['PUT', `${base}/modules/${MISSING}`, { name: 'x' }],
      ['DELETE', `${base}/modules/${MISSING}`, undefined],
      ['POST', '/api/admin/integration/modules/sort', { ids: [MISSING] }],
      ['POST', `${base}/settings`, { slug: 'x', name: 'x', kind: 'source' }],
      ['PUT', `${base}/settings/${MISSING}`, { name: 'x' }],
      ['DELETE', `${base}/settings/${MISSING}`, undefined],
    ];
    for (const [method, url, body] of changes) {
      expectError(await call(method, url, client, body), 403, 'FORBIDDEN');
      expectError(await call(method, url, null, body), 401, 'UNAUTHORIZED');
    }
    for (const url of [`${base}/settings`, `${base}/categories`, `${base}/modules`]) {
      expectError(await call('GET', url, null), 401, 'UNAUTHORIZED');
    }
  });
});

describe('audit log', () => {
  const entriesFor = (targetId: string) =>
    t.app.db
      .select({
        action: auditLog.action,
        label: auditLog.targetLabel,
        actor: auditLog.actorLogin,
        details: auditLog.details,
      })
      .from(auditLog)
      .where(eq(auditLog.targetId, targetId))
      .orderBy(asc(auditLog.id));

  it('records every catalogue change with who made it, on what and what changed', async () => {
    const category = (await call('POST', `${base}/categories`, admin, { name: 'Audited' })).json();
    await call('PUT', `${base}/categories/${category._id}`, admin, { name: 'Audited 2' });
    const type = (
      await call('POST', `${base}/settings`, admin, { slug: 'audited-type', name: 'Audited type', kind: 'source' })
    ).json();
    await call('PUT', `${base}/settings/${type._id}`, admin, { hidden: true });
    const a = (await call('POST', `${base}/modules`, admin, { settingId: type._id, name: 'A' })).json();
    const b = (await call('POST', `${base}/modules`, admin, { settingId: type._id, name: 'B' })).json();
    await call('PUT', `${base}/modules/${a._id}`, admin, { name: 'A2' });
    expect((await call('POST', '/api/admin/integration/modules/sort', admin, { ids: [b._id, a._id] })).statusCode).toBe(
      200,
    );
    await call('DELETE', `${base}/modules/${a._id}`, admin);
    await call('DELETE', `${base}/settings/${type._id}`, admin);
    await call('DELETE', `${base}/categories/${category._id}`, admin);

    expect((await entriesFor(category._id)).map((e) => [e.action, e.label])).toEqual([
      ['catalogue.category.create', 'Audited'],
      ['catalogue.category.update', 'Audited 2'],
      ['catalogue.category.delete', 'Audited 2'],
    ]);
    const typeEntries = await entriesFor(type._id);
    expect(typeEntries.map((e) => e.action)).toEqual([
      'catalogue.setting.create',
      'catalogue.setting.update',
      'catalogue.setting.delete',
    ]);
    expect(typeEntries[1]).toMatchObject({ label: 'audited-type', actor: admin.login, details: { hidden: true } });
    expect((await entriesFor(a._id)).map((e) => [e.action, e.label])).toEqual([
      ['catalogue.module.create', 'A'],
      ['catalogue.module.update', 'A2'],
      ['catalogue.module.delete', 'A2'],
    ]);
    const [sort] = await t.app.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'catalogue.module.sort'))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(sort?.details).toEqual({ ids: [b._id, a._id] });
  });

  it('records nothing when the change is refused', async () => {
    const before = await t.app.db.$count(auditLog);
    expectError(await call('PUT', `${base}/modules/${MISSING}`, admin, { name: 'x' }), 404, 'MODULE_NOT_FOUND');
    expectError(
      await call('POST', '/api/admin/integration/modules/sort', admin, { ids: [MISSING] }),
      404,
      'MODULE_NOT_FOUND',
    );
    expectError(await call('POST', `${base}/categories`, client, { name: 'x' }), 403, 'FORBIDDEN');
    expect(await t.app.db.$count(auditLog)).toBe(before);
  });
});
