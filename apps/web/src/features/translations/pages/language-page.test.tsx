import type { TranslationEntry } from '@leadrelay/shared';
import { configure, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetAuthForTests } from '../../../lib/auth';
import { jsonResponse, makeUser, renderPage } from '../../../test/render';
import { LanguagePage } from './language-page';

const form = (key: string, category: string | null, source: string, shipped: string, value: string | null = null) => ({
  key,
  category,
  source,
  shipped,
  value,
  _id: value === null ? null : `id-${key}`,
});

const days: TranslationEntry = {
  namespace: 'common',
  key: 'days',
  plural: true,
  translated: true,
  forms: [
    form('days_one', 'one', '{{count}} day', '{{count}} день'),
    form('days_few', 'few', '{{count}} days', '{{count}} дні'),
    form('days_many', 'many', '{{count}} days', '{{count}} днів'),
    form('days_other', 'other', '{{count}} days', '{{count}} дня'),
  ],
};
const tagline: TranslationEntry = {
  namespace: 'common',
  key: 'tagline',
  plural: false,
  translated: true,
  forms: [form('tagline', null, 'Leads from any source', 'Ліди з будь-якого джерела', 'Ліди одразу в CRM')],
};

let posts: unknown[];
let listed: string[];
beforeEach(() => {
  resetAuthForTests();
  posts = [];
  listed = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      if (method === 'GET' && url === '/api/legacy/api/super-admin/languages') {
        return jsonResponse(200, {
          data: [
            { code: 'uk', iso: 'uk-UA', file: 'uk.json', domain: '', dir: 'ltr', name: 'Українська' },
            { code: 'en', iso: 'en-US', file: 'en.json', domain: '', dir: 'ltr', name: 'English' },
          ],
          total: 2,
        });
      }
      if (method === 'GET' && url.startsWith('/api/legacy/api/super-admin/languages/translates/')) {
        listed.push(url);
        return jsonResponse(200, { data: [days, tagline], total: 2, locale: 'uk' });
      }
      if (method === 'POST' && url === '/api/legacy/api/super-admin/languages/translates') {
        posts.push(JSON.parse(String(init.body)));
        return jsonResponse(200, { data: [] });
      }
      return jsonResponse(404, { statusCode: 404, code: 'NOT_FOUND', message: 'no' });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());
configure({ asyncUtilTimeout: 5000 });

describe('translations screen', { timeout: 30_000 }, () => {
  it('shows a plural string with every Ukrainian form and saves the changed forms together', async () => {
    renderPage(<LanguagePage />, { locale: 'uk', path: '/admin/super/language', user: makeUser({ role: 'owner' }) });
    const entry = await screen.findByTestId('translation-common.days');
    expect(within(entry).getByText('форми множини')).toBeTruthy();
    for (const key of ['days_one', 'days_few', 'days_many', 'days_other']) {
      expect(within(entry).getByLabelText(`common.${key}`)).toBeTruthy();
    }
    expect(within(entry).getAllByText('{{count}} days')).toHaveLength(3);
    // Page size 30 (spec 9) is what the list asks for.
    expect(listed[0]).toContain('limit=30');

    fireEvent.change(within(entry).getByLabelText('common.days_few'), { target: { value: '{{count}} доби' } });
    fireEvent.change(within(entry).getByLabelText('common.days_many'), { target: { value: '{{count}} діб' } });
    fireEvent.click(within(entry).getByRole('button', { name: 'Зберегти' }));
    await vi.waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]).toEqual({
      locale: 'uk',
      namespace: 'common',
      values: { days_few: '{{count}} доби', days_many: '{{count}} діб' },
    });
  });

  it('goes back to the shipped text by removing what was saved', async () => {
    renderPage(<LanguagePage />, { locale: 'en', path: '/en/admin/super/language', user: makeUser({ role: 'owner' }) });
    const entry = await screen.findByTestId('translation-common.tagline');
    expect((within(entry).getByLabelText('common.tagline') as HTMLTextAreaElement).value).toBe('Ліди одразу в CRM');
    fireEvent.click(within(entry).getByRole('button', { name: 'Back to the shipped text' }));
    await vi.waitFor(() => expect(posts).toHaveLength(1));
    // The page opens on the interface's language.
    expect(listed[0]).toContain('/translates/en?');
    expect(posts[0]).toEqual({ locale: 'en', namespace: 'common', values: { tagline: '' } });
  });
});
