import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, users } from '../../db/schema';
import { callAs, createTestApp, expectError, type SignedInUser, signUp, type TestApp } from '../../test/test-app';

let t: TestApp;
let admin: SignedInUser;
let client: SignedInUser;
const BASE = '/api/legacy/api/super-admin/languages';
const lastAudit = async () => (await t.app.db.select().from(auditLog).orderBy(sql`id desc`).limit(1))[0]!;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signUp(t);
  await t.app.db.update(users).set({ role: 'support' }).where(eq(users.login, admin.login));
  client = await signUp(t);
});
afterAll(() => t.close());

type Entry = {
  namespace: string;
  key: string;
  plural: boolean;
  translated: boolean;
  forms: { key: string; source: string; shipped: string | null; value: string | null; _id: string | null }[];
};

describe('languages', () => {
  it('lists Ukrainian and English with their locale entries', async () => {
    const res = await callAs(t, 'GET', BASE, admin);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([
      expect.objectContaining({ code: 'uk', iso: 'uk-UA', file: 'uk.json', domain: '', dir: 'ltr' }),
      expect.objectContaining({ code: 'en', iso: 'en-US', file: 'en.json', dir: 'ltr' }),
    ]);
  });

  it('adds a language that then lists every string as untranslated, with its own plural forms', async () => {
    const added = await callAs(t, 'POST', `${BASE}/add`, admin, {
      code: 'pl',
      iso: 'pl-PL',
      file: 'pl.json',
      name: 'Polski',
    });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({ code: 'pl', dir: 'ltr', domain: '' });
    expect(await lastAudit()).toMatchObject({ action: 'language.add', targetId: 'pl' });
    expectError(
      await callAs(t, 'POST', `${BASE}/add`, admin, { code: 'pl', iso: 'pl-PL', file: 'pl.json', name: 'P' }),
      409,
      'LOCALE_EXISTS',
    );
    expectError(
      await callAs(t, 'POST', `${BASE}/add`, admin, { code: 'PL!', iso: 'pl', file: 'x', name: 'P' }),
      400,
      'VALIDATION_ERROR',
    );

    const list = (await callAs(t, 'GET', `${BASE}/translates/pl?namespace=common&search=days`, admin)).json();
    const days = list.data.find((e: Entry) => e.key === 'days');
    expect(days).toMatchObject({ plural: true, translated: false });
    expect(days.forms.map((f: { key: string }) => f.key)).toEqual(['days_one', 'days_few', 'days_many', 'days_other']);
    expect(days.forms[0]).toMatchObject({ source: '{{count}} day', shipped: null, value: null });

    // A bundle of a language with nothing saved is empty: i18next falls back to English.
    const bundle = await t.app.inject({ method: 'GET', url: '/api/i18n/pl/common' });
    expect(bundle.json()).toEqual({});
    const locales = (await t.app.inject({ method: 'GET', url: '/api/i18n/locales' })).json();
    expect(locales.map((l: { code: string }) => l.code)).toEqual(['uk', 'en', 'pl']);
  });
});

describe('translations', () => {
  it('pages 30 at a time, side by side with the English source, searchable by key or text', async () => {
    const page = (await callAs(t, 'GET', `${BASE}/translates/uk`, admin)).json();
    expect(page.data).toHaveLength(30);
    expect(page.total).toBeGreaterThan(300);
    const byText = (
      await callAs(t, 'GET', `${BASE}/translates/uk?search=${encodeURIComponent('Ліди з будь-якого')}`, admin)
    ).json();
    expect(byText.data[0]).toMatchObject({ namespace: 'common', key: 'tagline', translated: true });
    expect(byText.data[0].forms[0]).toMatchObject({
      source: 'Leads from any source, straight into your CRM',
      shipped: 'Ліди з будь-якого джерела — одразу у вашу CRM',
    });
    const byKey = (await callAs(t, 'GET', `${BASE}/translates/uk?search=common.tagline`, admin)).json();
    expect(byKey.total).toBe(1);
    expect((await callAs(t, 'GET', `${BASE}/translates/uk?untranslated=true`, admin)).json().total).toBe(0);
    expectError(await callAs(t, 'GET', `${BASE}/translates/xx`, admin), 404, 'LOCALE_NOT_FOUND');
    expectError(await callAs(t, 'GET', `${BASE}/translates/uk?limit=500`, admin), 400, 'VALIDATION_ERROR');
  });

  it('saves a Ukrainian string that reaches the web app bundle, audited, and can be changed and removed', async () => {
    const saved = await callAs(t, 'POST', `${BASE}/translates`, admin, {
      locale: 'uk',
      namespace: 'common',
      values: { tagline: 'Ліди одразу в CRM' },
    });
    expect(saved.statusCode).toBe(200);
    const [row] = saved.json().data;
    expect(row).toMatchObject({ locale: 'uk', namespace: 'common', key: 'tagline', value: 'Ліди одразу в CRM' });
    expect(await lastAudit()).toMatchObject({
      action: 'translation.update',
      details: { tagline: [null, 'Ліди одразу в CRM'] },
    });

    const bundle = await t.app.inject({ method: 'GET', url: '/api/i18n/uk/common' });
    expect(bundle.json()).toMatchObject({ tagline: 'Ліди одразу в CRM', save: 'Зберегти', days_few: '{{count}} дні' });
    expect(bundle.headers['cache-control']).toBe('no-cache');
    const again = await t.app.inject({
      method: 'GET',
      url: '/api/i18n/uk/common',
      headers: { 'if-none-match': String(bundle.headers.etag) },
    });
    expect(again.statusCode).toBe(304);

    const put = await callAs(t, 'PUT', `${BASE}/translates/${row._id}`, admin, { value: 'Ліди — одразу в CRM' });
    expect(put.json().value).toBe('Ліди — одразу в CRM');
    expect((await t.app.inject({ method: 'GET', url: '/api/i18n/uk/common' })).json().tagline).toBe(
      'Ліди — одразу в CRM',
    );

    expect((await callAs(t, 'DELETE', `${BASE}/translates/${row._id}`, admin)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/i18n/uk/common' })).json().tagline).toBe(
      'Ліди з будь-якого джерела — одразу у вашу CRM',
    );
    expect(await lastAudit()).toMatchObject({ action: 'translation.delete' });
    expectError(await callAs(t, 'DELETE', `${BASE}/translates/${row._id}`, admin), 404, 'TRANSLATION_NOT_FOUND');
    expectError(
      await callAs(t, 'PUT', `${BASE}/translates/${row._id}`, admin, { value: 'x' }),
      404,
      'TRANSLATION_NOT_FOUND',
    );
  });

  it('answers every namespace the web app asks for at start in one call, with the saved strings on top', async () => {
    const saved = await callAs(t, 'POST', `${BASE}/translates`, admin, {
      locale: 'uk',
      namespace: 'auth',
      values: { 'signin.title': 'Увійдіть, будь ласка' },
    });
    expect(saved.statusCode).toBe(200);
    const [row] = saved.json().data;

    // As i18next's multiload backend asks: languages and namespaces joined by "+".
    const url = '/api/i18n?lng=uk+en&ns=common+auth+constructor';
    const both = await t.app.inject({ method: 'GET', url });
    expect(both.statusCode).toBe(200);
    expect(both.headers['cache-control']).toBe('no-cache');
    const body = both.json();
    expect(Object.keys(body)).toEqual(['uk', 'en']);
    expect(Object.keys(body.uk)).toEqual(['common', 'auth', 'constructor']);
    // The same strings as the namespace's own call gives.
    for (const ns of ['common', 'auth']) {
      expect(body.uk[ns]).toEqual((await t.app.inject({ method: 'GET', url: `/api/i18n/uk/${ns}` })).json());
      expect(body.en[ns]).toEqual((await t.app.inject({ method: 'GET', url: `/api/i18n/en/${ns}` })).json());
    }
    expect(body.uk.auth.signin.title).toBe('Увійдіть, будь ласка');
    expect(body.en.auth.signin.title).not.toBe('Увійдіть, будь ласка');
    // A namespace nobody shipped or saved is empty, named as data, never a member of something else.
    expect(body.uk.constructor).toEqual({});
    const again = await t.app.inject({ method: 'GET', url, headers: { 'if-none-match': String(both.headers.etag) } });
    expect(again.statusCode).toBe(304);

    // A change shows at the next load: the ETag differs.
    await callAs(t, 'DELETE', `${BASE}/translates/${row._id}`, admin);
    const changed = await t.app.inject({ method: 'GET', url, headers: { 'if-none-match': String(both.headers.etag) } });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().uk.auth.signin.title).not.toBe('Увійдіть, будь ласка');

    expectError(await t.app.inject({ method: 'GET', url: '/api/i18n?lng=uk+de&ns=common' }), 404, 'LOCALE_NOT_FOUND');
    // Each list named, and each item as the namespace's own call takes it.
    expectError(await t.app.inject({ method: 'GET', url: '/api/i18n?lng=uk' }), 400, 'REQUIRED');
    expectError(await t.app.inject({ method: 'GET', url: '/api/i18n?ns=common' }), 400, 'REQUIRED');
    for (const query of ['lng=uk&ns=', 'lng=UK!&ns=common', 'lng=uk&ns=__proto__', 'lng=uk&ns=a.b']) {
      expectError(await t.app.inject({ method: 'GET', url: `/api/i18n?${query}` }), 400, 'VALIDATION_ERROR');
    }
    // At most 60 namespaces a call (the app has 30).
    const letters = (i: number) => String.fromCharCode(97 + Math.floor(i / 26)) + String.fromCharCode(97 + (i % 26));
    const ns = (n: number) => Array.from({ length: n }, (_, i) => `ns${letters(i)}`).join('+');
    expect((await t.app.inject({ method: 'GET', url: `/api/i18n?lng=uk&ns=${ns(60)}` })).statusCode).toBe(200);
    expectError(await t.app.inject({ method: 'GET', url: `/api/i18n?lng=uk&ns=${ns(61)}` }), 400, 'VALIDATION_ERROR');
  });

  it('saves the plural forms of one string together and refuses keys that do not exist', async () => {
    const values = {
      days_one: '{{count}} доба',
      days_few: '{{count}} доби',
      days_many: '{{count}} діб',
      days_other: '{{count}} доби',
    };
    const res = await callAs(t, 'POST', `${BASE}/translates`, admin, { locale: 'uk', namespace: 'common', values });
    expect(res.json().data).toHaveLength(4);
    const list = (await callAs(t, 'GET', `${BASE}/translates/uk?namespace=common&search=days`, admin)).json();
    const days = list.data.find((e: Entry) => e.key === 'days');
    expect(days.forms.map((f: { value: string }) => f.value)).toEqual(Object.values(values));

    expectError(
      await callAs(t, 'POST', `${BASE}/translates`, admin, {
        locale: 'uk',
        namespace: 'common',
        values: { nothing_here: 'x' },
      }),
      400,
      'TRANSLATION_KEY_UNKNOWN',
    );
    // English has no "few" form.
    expectError(
      await callAs(t, 'POST', `${BASE}/translates`, admin, {
        locale: 'en',
        namespace: 'common',
        values: { days_few: 'x' },
      }),
      400,
      'TRANSLATION_KEY_UNKNOWN',
    );
    expectError(
      await callAs(t, 'POST', `${BASE}/translates`, admin, {
        locale: 'xx',
        namespace: 'common',
        values: { save: 'x' },
      }),
      404,
      'LOCALE_NOT_FOUND',
    );
    expectError(
      await callAs(t, 'POST', `${BASE}/translates`, admin, { locale: 'uk', namespace: 'common', values: {} }),
      400,
      'VALIDATION_ERROR',
    );
    // An empty value goes back to the shipped text.
    await callAs(t, 'POST', `${BASE}/translates`, admin, {
      locale: 'uk',
      namespace: 'common',
      values: { days_one: '' },
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/i18n/uk/common' })).json().days_one).toBe('{{count}} день');
  });

  it('is for staff only; the bundles are public', async () => {
    const calls: [Parameters<typeof callAs>[1], string, unknown?][] = [
      ['GET', BASE],
      ['POST', `${BASE}/add`, { code: 'de', iso: 'de-DE', file: 'de.json', name: 'Deutsch' }],
      ['GET', `${BASE}/translates/uk`],
      ['POST', `${BASE}/translates`, { locale: 'uk', namespace: 'common', values: { save: 'x' } }],
      ['PUT', `${BASE}/translates/${crypto.randomUUID()}`, { value: 'x' }],
      ['DELETE', `${BASE}/translates/${crypto.randomUUID()}`],
    ];
    for (const [method, url, body] of calls) {
      expectError(await callAs(t, method, url, client, body), 403, 'FORBIDDEN');
      expectError(await callAs(t, method, url, null, body), 401, 'UNAUTHORIZED');
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/i18n/en/common' })).json().save).toBe('Save');
    expectError(await t.app.inject({ method: 'GET', url: '/api/i18n/de/common' }), 404, 'LOCALE_NOT_FOUND');
  });
});
