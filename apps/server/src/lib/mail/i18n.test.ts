import { connectorNames, namesPattern } from '@leadrelay/connectors/glossary';
import { LOCALES } from '@leadrelay/shared';
import { describe, expect, it } from 'vitest';
import glossary from '../../../../web/src/locales/names.json' with { type: 'json' };
import { MAIL_CATALOGUES, t, tn } from './i18n';

const PLURAL = /_(zero|one|two|few|many|other)$/;
const params = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
/** Each sentence once, plural forms folded into their base key. */
const sentences = (lang: (typeof LOCALES)[number]) =>
  [...new Set(Object.keys(MAIL_CATALOGUES[lang]).map((key) => key.replace(PLURAL, '')))].sort();

describe('mail catalogue', () => {
  it('has every sentence in Ukrainian and in English', () => {
    expect(sentences('en')).toEqual(sentences('uk'));
  });

  it('has no empty string and no leftover English in Ukrainian', () => {
    for (const lang of LOCALES) {
      for (const [key, text] of Object.entries(MAIL_CATALOGUES[lang])) {
        expect(text.trim(), `${lang}:${key}`).not.toBe('');
      }
    }
    // Product and service names stay as they are (docs/glossary.md: the web's names.json and every
    // connector's), and UTC; anything else Latin in Ukrainian is untranslated.
    const allowed = namesPattern([...glossary.names, ...connectorNames(), 'UTC']);
    for (const [key, text] of Object.entries(MAIL_CATALOGUES.uk)) {
      expect(text.replace(allowed, '').replace(/\{\w+\}/g, ''), `uk:${key}`).not.toMatch(/[A-Za-z]{3,}/);
    }
  });

  it('gives a sentence the same parameters in both languages, in every plural form', () => {
    for (const key of Object.keys(MAIL_CATALOGUES.uk)) {
      const base = key.replace(PLURAL, '');
      const expected = params(MAIL_CATALOGUES.uk[key]!);
      for (const lang of LOCALES) {
        const forms = Object.keys(MAIL_CATALOGUES[lang]).filter((k) => k === base || k.replace(PLURAL, '') === base);
        for (const form of forms) expect(params(MAIL_CATALOGUES[lang][form]!), `${lang}:${form}`).toEqual(expected);
      }
    }
  });

  it('has exactly the plural forms each language uses', () => {
    for (const lang of LOCALES) {
      const categories = new Intl.PluralRules(lang).resolvedOptions().pluralCategories.slice().sort();
      const plural = Object.keys(MAIL_CATALOGUES[lang]).filter((k) => PLURAL.test(k));
      const bases = new Set(plural.map((k) => k.replace(PLURAL, '')));
      for (const base of bases) {
        const forms = plural.filter((k) => k.replace(PLURAL, '') === base).map((k) => k.match(PLURAL)![1]);
        expect(forms.sort(), `${lang}:${base}`).toEqual(categories);
      }
    }
  });

  it('fills parameters and picks the plural form the count needs', () => {
    expect(t('uk', 'broken.subject', { name: 'CRM' })).toBe('LeadRelay: «CRM» не приймає ліди');
    const subject = (lang: 'uk' | 'en', n: number) => tn(lang, 'drop.subject', n, { day: 'X' });
    expect([1, 3, 5, 21, 22, 11].map((n) => subject('uk', n))).toEqual([
      'LeadRelay: 1 лід не буде доставлено після X',
      'LeadRelay: 3 ліди не буде доставлено після X',
      'LeadRelay: 5 лідів не буде доставлено після X',
      'LeadRelay: 21 лід не буде доставлено після X',
      'LeadRelay: 22 ліди не буде доставлено після X',
      'LeadRelay: 11 лідів не буде доставлено після X',
    ]);
    expect(subject('en', 1)).toBe('LeadRelay: 1 held lead will not be delivered after X');
    expect(subject('en', 2)).toBe('LeadRelay: 2 held leads will not be delivered after X');
  });
});
