import { afterEach, describe, expect, it, vi } from 'vitest';
import enDashboard from '../locales/en-dashboard';
import enRest from '../locales/en-rest';
import enStart from '../locales/en-start';
import ukDashboard from '../locales/uk-dashboard';
import ukRest from '../locales/uk-rest';
import ukStart from '../locales/uk-start';
import { i18n, loadSavedTranslations, NAMESPACES } from './i18n';

/** Every word's dotted key in a bundle. */
const leaves = (value: unknown, prefix = ''): string[] =>
  value && typeof value === 'object'
    ? Object.entries(value).flatMap(([k, v]) => leaves(v, prefix ? `${prefix}.${k}` : k))
    : [prefix];

// A namespace in no chunk never loads (its keys would show raw); one in two loads twice. The one
// split on purpose is `connectors`: its codes' words (words/codes) come with the dashboard, which
// shows an integration's state, the rest with the rest; no word is in both.
describe('the strings chunks', () => {
  it.each([
    ['uk', [ukStart, ukDashboard, ukRest]],
    ['en', [enStart, enDashboard, enRest]],
  ])('hold every %s namespace exactly once (the connectors’ words in two parts)', (_language, chunks) => {
    const names = chunks.flatMap((chunk) => Object.keys(chunk));
    expect([...new Set(names)].sort()).toEqual([...NAMESPACES].sort());
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual(['connectors']);
    const parts = chunks.filter((c) => 'connectors' in c).map((c) => leaves((c as { connectors: object }).connectors));
    expect(parts.map((p) => p.length > 0)).toEqual([true, true]);
    expect(parts[0]!.filter((key) => parts[1]!.includes(key))).toEqual([]);
  });

  it('split both languages the same way', () => {
    expect(Object.keys(enStart).sort()).toEqual(Object.keys(ukStart).sort());
    expect(Object.keys(enDashboard).sort()).toEqual(Object.keys(ukDashboard).sort());
  });
});

// What the operator saved reaches a page load in one call for every namespace, not one call each.
describe('the saved strings', () => {
  let stop = () => {};
  afterEach(() => {
    // The reloads on a change of language end with this file: the next files share the i18n instance.
    stop();
    vi.unstubAllGlobals();
  });

  it('load in one call at start and show over the shipped ones', async () => {
    const urls: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      urls.push(url);
      const saved = { uk: { layout: { super: { audit: 'Журнал подій оператора' } } } };
      return new Response(JSON.stringify(saved), { headers: { 'content-type': 'application/json' } });
    });
    await i18n.changeLanguage('uk');
    expect(i18n.t('layout:super.audit')).toBe(ukStart.layout.super.audit);
    const loaded = new Promise((done) => i18n.on('loaded', done));
    stop = loadSavedTranslations();
    await loaded;
    expect(urls).toHaveLength(1);
    const asked = new URL(urls[0]!, 'http://localhost');
    expect(asked.pathname).toBe('/api/i18n');
    expect(asked.searchParams.get('lng')).toBe('uk');
    expect(asked.searchParams.get('ns')?.split(' ').sort()).toEqual([...NAMESPACES].sort());
    expect(i18n.t('layout:super.audit')).toBe('Журнал подій оператора');
    // A namespace the answer left out keeps its shipped strings.
    expect(i18n.t('common:save')).toBe(ukStart.common.save);
    // A change of language loads that language's saved strings; once stopped, no more calls.
    const reloaded = new Promise((done) => i18n.on('loaded', done));
    await i18n.changeLanguage('en');
    await reloaded;
    expect(urls).toHaveLength(2);
    stop();
    await i18n.changeLanguage('uk');
    await new Promise((r) => setTimeout(r, 20));
    expect(urls).toHaveLength(2);
  });
});
