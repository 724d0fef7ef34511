// GET /api/dev/mail: every mail with sample data, only on a server whose preview is on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectError, type TestApp } from '../../test/test-app';

let on: TestApp;
let off: TestApp;
beforeAll(async () => {
  [on, off] = await Promise.all([createTestApp({ mailPreview: true }), createTestApp()]);
});
afterAll(async () => {
  await Promise.all([on?.close(), off?.close()]);
});

const get = (t: TestApp, url: string) => t.app.inject({ method: 'GET', url });

describe('mail preview', () => {
  it('lists every mail with its subject in both languages and where to see it', async () => {
    const res = await get(on, '/api/dev/mail');
    expect(res.statusCode).toBe(200);
    const { templates } = res.json() as {
      templates: { name: string; subject: Record<string, string>; links: Record<string, string> }[];
    };
    expect(templates.map((m) => m.name)).toEqual(
      expect.arrayContaining(['confirm', 'reset-password', 'operator-reset-password', 'integration-broken']),
    );
    expect(templates.find((m) => m.name === 'confirm')).toEqual({
      name: 'confirm',
      subject: { uk: 'Підтвердіть e-mail для LeadRelay', en: 'Confirm your e-mail for LeadRelay' },
      links: {
        'uk.html': '/api/dev/mail/confirm?lang=uk&format=html',
        'uk.text': '/api/dev/mail/confirm?lang=uk&format=text',
        'en.html': '/api/dev/mail/confirm?lang=en&format=html',
        'en.text': '/api/dev/mail/confirm?lang=en&format=text',
      },
    });
  });

  it('draws a mail as HTML (Ukrainian by default) and as text, with sample links on this server', async () => {
    const html = await get(on, '/api/dev/mail/confirm');
    expect(html.statusCode).toBe(200);
    expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(html.body).toContain('lang="uk"');
    expect(html.body).toContain('href="http://app.test/confirm?token=');

    const text = await get(on, '/api/dev/mail/integration-broken?lang=en&format=text');
    expect(text.statusCode).toBe(200);
    expect(text.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(text.body).toMatch(/^Subject: LeadRelay: ".+" is not accepting leads\n/);
    expect(text.body).toContain('\nhttp://app.test/en/admin/integrations/');
  });

  it('answers 404 for a mail it does not know and 400 for a language or format it does not have', async () => {
    expectError(await get(on, '/api/dev/mail/nope'), 404, 'NOT_FOUND');
    expectError(await get(on, '/api/dev/mail/__proto__'), 404, 'NOT_FOUND');
    expectError(await get(on, '/api/dev/mail/confirm?lang=de'), 400, 'VALIDATION_ERROR');
    expectError(await get(on, '/api/dev/mail/confirm?format=pdf'), 400, 'VALIDATION_ERROR');
  });

  it('does not exist on a server without the preview', async () => {
    expect((await get(off, '/api/dev/mail')).statusCode).toBe(404);
    expect((await get(off, '/api/dev/mail/confirm')).statusCode).toBe(404);
  });
});
