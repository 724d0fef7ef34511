import type { Category, Setting } from '@leadrelay/shared';
import { i18n } from '../i18n';

export interface CatalogueGroup {
  key: string;
  name: string;
  types: Setting[];
}

/** Types a user can create (not hidden, with a connector), grouped by category in the catalogue's order. */
export function groupCatalogue(settings: readonly Setting[], categories: readonly Category[] = []): CatalogueGroup[] {
  const order = new Map(categories.map((c, i) => [c._id, i]));
  const groups = new Map<string, CatalogueGroup>();
  for (const s of settings) {
    if (s.hidden || !s.available) continue;
    const key = s.category?._id ?? '';
    const group = groups.get(key) ?? { key, name: s.category?.name ?? '', types: [] };
    group.types.push(s);
    groups.set(key, group);
  }
  const rank = (g: CatalogueGroup) => (g.key === '' ? Number.MAX_SAFE_INTEGER : (order.get(g.key) ?? 10_000));
  return [...groups.values()].sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
}

/** Seeded category names have translations; an operator's own names are shown as written. */
export function categoryLabel(name: string): string {
  const key = `integrations:catalogue.categories.${name}`;
  if (!name) return i18n.t('integrations:catalogue.other');
  return i18n.exists(key) ? i18n.t(key as 'integrations:catalogue.other') : name;
}

/** The first of these keys the strings have, in the page's language. */
function firstWord(keys: string[]): string | null {
  const key = keys.find((k) => i18n.exists(k));
  return key ? i18n.t(key as 'integrations:catalogue.other') : null;
}

/** A short explanation of what a shipped type does (a connector's is in its words); null for types without one. */
export function typeDescription(slug: string): string | null {
  return firstWord([`integrations:catalogue.descriptions.${slug}`, `connectors:${slug}.catalogue.description`]);
}

/** A shipped type's name in the page's language (the glossary: "Вебхук"); an operator's own type as written. */
export function typeLabel(setting: Pick<Setting, 'slug' | 'name'>): string {
  return (
    firstWord([`integrations:catalogue.names.${setting.slug}`, `connectors:${setting.slug}.catalogue.name`]) ??
    setting.name
  );
}

/** A seeded tag in the page's language (ads → реклама); an operator's own tag as written. */
export function tagLabel(tag: string): string {
  const key = `integrations:catalogue.tags.${tag}`;
  return i18n.exists(key) ? i18n.t(key as 'integrations:catalogue.other') : tag;
}

/** The picker's search: every word of the query in the type's name, description, tags or category, either language's tag. */
export function matchesSearch(setting: Setting, query: string, category = ''): boolean {
  const words = query.trim().toLocaleLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const text = [
    setting.name,
    typeLabel(setting),
    typeDescription(setting.slug) ?? '',
    category,
    ...setting.tags,
    ...setting.tags.map(tagLabel),
  ]
    .join(' ')
    .toLocaleLowerCase();
  return words.every((w) => text.includes(w));
}

/** The catalogue name of a type, or the slug while the catalogue loads. */
export function typeName(settings: readonly Setting[] | undefined, slug: string): string {
  const setting = settings?.find((s) => s.slug === slug);
  return setting ? typeLabel(setting) : slug;
}
