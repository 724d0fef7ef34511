// Languages and the operator's strings (spec 3 "Translation", "Locale entry"; 7 "Super admin").
// The shipped strings are the source; a saved row overrides one key of one language. Plural
// strings are one entry with every form the language's plural rules need (Intl.PluralRules).
import type {
  LocaleAddBody,
  TranslationEntry,
  TranslationList,
  TranslationSaveBody,
  TranslationsQuery,
} from '@leadrelay/shared';
import { setOwn } from '@leadrelay/shared';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client';
import { type LocaleRow, locales, type TranslationRow, translations } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { type AuditActor, recordAudit } from '../audit';
import { type ShippedStrings, unflatten } from './shipped-strings';

/** The language every other one is translated from, and falls back to. */
export const SOURCE_LOCALE = 'en';
const CATEGORY_ORDER = ['zero', 'one', 'two', 'few', 'many', 'other'];
const PLURAL = /^(.*)_(zero|one|two|few|many|other)$/;

const toEntry = (row: LocaleRow) => ({
  code: row.code,
  iso: row.iso,
  file: row.file,
  domain: row.domain,
  dir: row.dir,
  name: row.name,
});

const toTranslation = (row: TranslationRow) => ({
  _id: row.id,
  locale: row.locale,
  namespace: row.namespace,
  key: row.key,
  value: row.value,
  updatedAt: row.updatedAt.toISOString(),
});

export async function listLocales(db: Executor) {
  // The default language first, then English, then the rest as they were added.
  const rows = await db
    .select()
    .from(locales)
    .orderBy(
      sql`${locales.code} = 'uk' desc`,
      sql`${locales.code} = 'en' desc`,
      asc(locales.createdAt),
      asc(locales.code),
    );
  return { data: rows.map(toEntry), total: rows.length };
}

export async function findLocale(db: Executor, code: string): Promise<LocaleRow> {
  const [row] = await db.select().from(locales).where(eq(locales.code, code)).limit(1);
  if (!row) throw new AppError('LOCALE_NOT_FOUND');
  return row;
}

export async function addLocale(db: Db, audit: AuditActor, body: Required<LocaleAddBody>) {
  if (Intl.PluralRules.supportedLocalesOf([body.iso]).length === 0) throw new AppError('VALIDATION_ERROR');
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(locales).values(body).onConflictDoNothing().returning();
    if (!row) throw new AppError('LOCALE_EXISTS');
    await recordAudit(tx, audit, {
      action: 'language.add',
      targetType: 'language',
      targetId: row.code,
      targetLabel: row.name,
      details: toEntry(row),
    });
    return toEntry(row);
  });
}

function pluralCategories(iso: string): string[] {
  const categories = new Intl.PluralRules(iso).resolvedOptions().pluralCategories as string[];
  return CATEGORY_ORDER.filter((c) => categories.includes(c));
}

interface CatalogueEntry {
  namespace: string;
  key: string;
  plural: boolean;
  /** Source texts by full key (plural: by category, `other` as the rest). */
  source: Map<string, string>;
}

/** The entries of the source language: plain keys, and plural bases with their forms. */
function catalogue(shipped: ShippedStrings): CatalogueEntry[] {
  const entries: CatalogueEntry[] = [];
  const source = shipped.get(SOURCE_LOCALE) ?? new Map();
  for (const [namespace, keys] of [...source.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const plurals = new Map<string, CatalogueEntry>();
    for (const [key, text] of [...keys.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      const match = PLURAL.exec(key);
      if (match) {
        const base = match[1] as string;
        let entry = plurals.get(base);
        if (!entry) {
          entry = { namespace, key: base, plural: true, source: new Map() };
          plurals.set(base, entry);
          entries.push(entry);
        }
        entry.source.set(match[2] as string, text);
      } else {
        entries.push({ namespace, key, plural: false, source: new Map([['', text]]) });
      }
    }
  }
  return entries;
}

/** The forms (full keys with their category) a catalogue entry has in a language. */
function formsOf(
  entry: CatalogueEntry,
  categories: string[],
): { key: string; category: string | null; source: string }[] {
  if (!entry.plural) return [{ key: entry.key, category: null, source: entry.source.get('') ?? '' }];
  return categories.map((category) => ({
    key: `${entry.key}_${category}`,
    category,
    source: entry.source.get(category) ?? entry.source.get('other') ?? '',
  }));
}

export class TranslationsCatalogue {
  private readonly entries: CatalogueEntry[];
  constructor(private readonly shipped: ShippedStrings) {
    this.entries = catalogue(shipped);
  }

  /** The keys one language may have in one namespace. */
  validKeys(namespace: string, iso: string): Set<string> {
    const categories = pluralCategories(iso);
    const keys = new Set<string>();
    for (const entry of this.entries) {
      if (entry.namespace !== namespace) continue;
      for (const form of formsOf(entry, categories)) keys.add(form.key);
    }
    return keys;
  }

  shippedText(locale: string, namespace: string, key: string): string | null {
    return this.shipped.get(locale)?.get(namespace)?.get(key) ?? null;
  }

  async list(
    db: Executor,
    code: string,
    query: TranslationsQuery & { page: number; limit: number },
  ): Promise<TranslationList> {
    const locale = await findLocale(db, code);
    const categories = pluralCategories(locale.iso);
    const saved = await db.select().from(translations).where(eq(translations.locale, code));
    const byKey = new Map(saved.map((r) => [`${r.namespace}:${r.key}`, r]));
    const needle = query.search?.toLowerCase();
    const all: TranslationEntry[] = [];
    for (const entry of this.entries) {
      if (query.namespace && entry.namespace !== query.namespace) continue;
      const forms = formsOf(entry, categories).map((form) => {
        const row = byKey.get(`${entry.namespace}:${form.key}`);
        return {
          ...form,
          shipped: this.shippedText(code, entry.namespace, form.key),
          value: row?.value ?? null,
          _id: row?.id ?? null,
        };
      });
      const translated = forms.every((f) => (f.value ?? f.shipped ?? '') !== '');
      if (query.untranslated === 'true' && translated) continue;
      if (needle) {
        const haystack = [
          `${entry.namespace}.${entry.key}`,
          ...forms.flatMap((f) => [f.source, f.shipped ?? '', f.value ?? '']),
        ];
        if (!haystack.some((text) => text.toLowerCase().includes(needle))) continue;
      }
      all.push({ namespace: entry.namespace, key: entry.key, plural: entry.plural, translated, forms });
    }
    const start = (query.page - 1) * query.limit;
    return { data: all.slice(start, start + query.limit), total: all.length, locale: code };
  }

  /** Saves the forms of one string together; an empty value removes the override. */
  async save(db: Db, audit: AuditActor, body: TranslationSaveBody) {
    const locale = await findLocale(db, body.locale);
    const valid = this.validKeys(body.namespace, locale.iso);
    const keys = Object.keys(body.values);
    if (keys.some((k) => !valid.has(k))) throw new AppError('TRANSLATION_KEY_UNKNOWN');
    return db.transaction(async (tx) => {
      const before = await tx
        .select()
        .from(translations)
        .where(
          and(
            eq(translations.locale, locale.code),
            eq(translations.namespace, body.namespace),
            inArray(translations.key, keys),
          ),
        );
      const previous = new Map(before.map((r) => [r.key, r.value]));
      const saved: TranslationRow[] = [];
      const changes: Record<string, [string | null, string | null]> = {};
      const now = new Date();
      for (const [key, raw] of Object.entries(body.values)) {
        const value = raw.trim() === '' ? '' : raw;
        const old = previous.get(key) ?? null;
        if (value === '') {
          if (old === null) continue;
          await tx
            .delete(translations)
            .where(
              and(
                eq(translations.locale, locale.code),
                eq(translations.namespace, body.namespace),
                eq(translations.key, key),
              ),
            );
          setOwn(changes, key, [old, null]);
          continue;
        }
        if (old === value) continue;
        const [row] = await tx
          .insert(translations)
          .values({ locale: locale.code, namespace: body.namespace, key, value, updatedAt: now })
          .onConflictDoUpdate({
            target: [translations.locale, translations.namespace, translations.key],
            set: { value, updatedAt: now },
          })
          .returning();
        saved.push(row!);
        setOwn(changes, key, [old, value]);
      }
      if (Object.keys(changes).length > 0) {
        await recordAudit(tx, audit, {
          action: 'translation.update',
          targetType: 'translation',
          targetId: `${locale.code}:${body.namespace}`,
          targetLabel: `${locale.code} ${body.namespace}.${keys[0]!.replace(PLURAL, '$1')}`,
          details: changes,
        });
      }
      return { data: saved.map(toTranslation) };
    });
  }

  async update(db: Db, audit: AuditActor, id: string, value: string) {
    return db.transaction(async (tx) => {
      const [old] = await tx.select().from(translations).where(eq(translations.id, id)).limit(1);
      if (!old) throw new AppError('TRANSLATION_NOT_FOUND');
      const [row] = await tx
        .update(translations)
        .set({ value, updatedAt: new Date() })
        .where(eq(translations.id, id))
        .returning();
      await recordAudit(tx, audit, {
        action: 'translation.update',
        targetType: 'translation',
        targetId: `${old.locale}:${old.namespace}`,
        targetLabel: `${old.locale} ${old.namespace}.${old.key}`,
        details: { [old.key]: [old.value, value] },
      });
      return toTranslation(row!);
    });
  }

  async remove(db: Db, audit: AuditActor, id: string): Promise<void> {
    await db.transaction(async (tx) => {
      const [old] = await tx.delete(translations).where(eq(translations.id, id)).returning();
      if (!old) throw new AppError('TRANSLATION_NOT_FOUND');
      await recordAudit(tx, audit, {
        action: 'translation.delete',
        targetType: 'translation',
        targetId: `${old.locale}:${old.namespace}`,
        targetLabel: `${old.locale} ${old.namespace}.${old.key}`,
        details: { [old.key]: [old.value, null] },
      });
    });
  }

  /** One namespace of one language as i18next reads it: the shipped strings with the overrides on top. */
  async bundle(db: Executor, code: string, namespace: string): Promise<Record<string, unknown>> {
    return (await this.bundles(db, [code], [namespace]))[code]![namespace]!;
  }

  /**
   * Several namespaces of several languages in one answer, as i18next's multiload backend reads it
   * (`{ uk: { common: {…}, auth: {…} } }`), read with one query per language. A language that does
   * not exist is LOCALE_NOT_FOUND.
   */
  async bundles(
    db: Executor,
    codes: readonly string[],
    namespaces: readonly string[],
  ): Promise<Record<string, Record<string, Record<string, unknown>>>> {
    const answer: Record<string, Record<string, Record<string, unknown>>> = Object.create(null);
    for (const code of codes) {
      await findLocale(db, code);
      const merged = new Map(namespaces.map((ns) => [ns, new Map(this.shipped.get(code)?.get(ns) ?? [])]));
      const rows = await db
        .select({ namespace: translations.namespace, key: translations.key, value: translations.value })
        .from(translations)
        .where(and(eq(translations.locale, code), inArray(translations.namespace, [...namespaces])));
      for (const row of rows) merged.get(row.namespace)?.set(row.key, row.value);
      const language: Record<string, Record<string, unknown>> = Object.create(null);
      for (const [ns, strings] of merged) language[ns] = unflatten(strings);
      answer[code] = language;
    }
    return answer;
  }
}
