// The catalogue of integration types: categories, settings (types) and their modules.
// Not tenant data: every account sees the same catalogue; only privileged users edit it.
import { getConnector } from '@leadrelay/connectors';
import { type Category, DESTINATION_TYPES, type Module, type Setting } from '@leadrelay/shared';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import {
  type IntegrationCategoryRow,
  type IntegrationModuleRow,
  type IntegrationSettingRow,
  integrationCategories,
  integrationModules,
  integrationSettings,
} from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { isUuid } from '../../lib/ids';
import { BUILT_IN_TYPES, SEED_CATEGORIES, SEED_SETTINGS, STAFF_TYPES, seedDestinationsOf } from './catalogue.seed';

/** Whether the server can run integrations of this type (a connector exists or ingest implements it). */
export const isTypeAvailable = (slug: string): boolean => BUILT_IN_TYPES.has(slug) || getConnector(slug) !== undefined;

/** Types only their own API creates (parsers: privileged roles, their own calls). */
export const isStaffOnlyType = (slug: string): boolean => STAFF_TYPES.has(slug);

/**
 * Inserts the shipped categories and types that are missing, and offers every source the destination
 * types shipped since the last start; safe to run on every start, on many nodes at once.
 */
export async function seedCatalogue(db: Executor): Promise<void> {
  await seedCatalogueRows(db);
  await offerNewDestinations(db);
}

/** The categories and types that are missing (what every build's seed has done, before 0046 too). */
export async function seedCatalogueRows(db: Executor): Promise<void> {
  await db
    .insert(integrationCategories)
    .values(SEED_CATEGORIES.map((c) => ({ key: c.key, name: c.name, order: c.order })))
    .onConflictDoNothing({ target: integrationCategories.key });
  const categories = await db
    .select({ id: integrationCategories.id, key: integrationCategories.key })
    .from(integrationCategories)
    .where(
      inArray(
        integrationCategories.key,
        SEED_CATEGORIES.map((c) => c.key),
      ),
    );
  const categoryId = new Map(categories.map((c) => [c.key, c.id]));
  await db
    .insert(integrationSettings)
    .values(
      SEED_SETTINGS.map((s) => ({
        slug: s.slug,
        name: s.name,
        kind: s.kind,
        categoryId: categoryId.get(s.category) ?? null,
        destinations: seedDestinationsOf(s),
        tags: s.tags,
      })),
    )
    .onConflictDoNothing({ target: integrationSettings.slug });
}

/**
 * A destination type this release ships for the first time joins every source type's list, once:
 * the insert returns only the slugs this call marked shipped (a concurrent start waits on the same
 * keys and gets none), so an operator's later removal from a source survives every restart.
 */
async function offerNewDestinations(db: Executor): Promise<void> {
  await db.execute(sql`
    with fresh as (
      insert into catalogue_shipped_destinations (slug)
      select jsonb_array_elements_text(${JSON.stringify(DESTINATION_TYPES)}::jsonb)
      on conflict do nothing
      returning slug
    )
    update integration_settings s
    set destinations = s.destinations || (
          select jsonb_agg(f.slug order by f.slug) from fresh f where not jsonb_exists(s.destinations, f.slug)
        ),
        updated_at = now()
    where s.kind = 'source'
      and exists (select 1 from fresh f where not jsonb_exists(s.destinations, f.slug))`);
}

// ---- Categories ----

const toCategory = (row: IntegrationCategoryRow): Category => ({ _id: row.id, name: row.name, order: row.order });

export async function listCategories(db: Executor): Promise<Category[]> {
  const rows = await db
    .select()
    .from(integrationCategories)
    .orderBy(asc(integrationCategories.order), asc(integrationCategories.name));
  return rows.map(toCategory);
}

async function categoryRow(db: Executor, id: string): Promise<IntegrationCategoryRow> {
  if (!isUuid(id)) throw new AppError('CATEGORY_NOT_FOUND');
  const [row] = await db.select().from(integrationCategories).where(eq(integrationCategories.id, id));
  if (!row) throw new AppError('CATEGORY_NOT_FOUND');
  return row;
}

export const getCategory = async (db: Executor, id: string) => toCategory(await categoryRow(db, id));

export async function createCategory(db: Executor, body: { name: string; order?: number }): Promise<Category> {
  const [row] = await db
    .insert(integrationCategories)
    .values({ name: body.name.trim(), order: body.order ?? 0 })
    .returning();
  return toCategory(row!);
}

export async function updateCategory(
  db: Executor,
  id: string,
  body: { name?: string; order?: number },
): Promise<Category> {
  await categoryRow(db, id);
  const [row] = await db
    .update(integrationCategories)
    .set({ ...body, ...(body.name ? { name: body.name.trim() } : {}), updatedAt: new Date() })
    .where(eq(integrationCategories.id, id))
    .returning();
  if (!row) throw new AppError('CATEGORY_NOT_FOUND');
  return toCategory(row);
}

/** Types of a deleted category stay, without a category. */
export async function deleteCategory(db: Executor, id: string): Promise<void> {
  await categoryRow(db, id);
  await db.delete(integrationCategories).where(eq(integrationCategories.id, id));
}

// ---- Modules ----

const toModule = (row: IntegrationModuleRow): Module => ({
  _id: row.id,
  settingId: row.settingId,
  name: row.name,
  slug: row.slug,
  order: row.order,
});

export async function listModules(db: Executor, settingId?: string): Promise<Module[]> {
  if (settingId !== undefined && !isUuid(settingId)) return [];
  const rows = await db
    .select()
    .from(integrationModules)
    .where(settingId ? eq(integrationModules.settingId, settingId) : undefined)
    .orderBy(asc(integrationModules.order), asc(integrationModules.createdAt));
  return rows.map(toModule);
}

async function moduleRow(db: Executor, id: string): Promise<IntegrationModuleRow> {
  if (!isUuid(id)) throw new AppError('MODULE_NOT_FOUND');
  const [row] = await db.select().from(integrationModules).where(eq(integrationModules.id, id));
  if (!row) throw new AppError('MODULE_NOT_FOUND');
  return row;
}

export const getModule = async (db: Executor, id: string) => toModule(await moduleRow(db, id));

async function requireSetting(db: Executor, settingId: string): Promise<void> {
  const [row] = await db
    .select({ id: integrationSettings.id })
    .from(integrationSettings)
    .where(eq(integrationSettings.id, settingId));
  if (!row) throw new AppError('SETTING_NOT_FOUND', { errors: [{ field: 'settingId', code: 'SETTING_NOT_FOUND' }] });
}

export async function createModule(
  db: Executor,
  body: { settingId: string; name: string; slug?: string | null; order?: number },
): Promise<Module> {
  await requireSetting(db, body.settingId);
  let order = body.order;
  if (order === undefined) {
    const [last] = await db
      .select({ max: sql<number | null>`max(${integrationModules.order})` })
      .from(integrationModules)
      .where(eq(integrationModules.settingId, body.settingId));
    order = last?.max === null || last?.max === undefined ? 0 : Number(last.max) + 1;
  }
  const [row] = await db
    .insert(integrationModules)
    .values({ settingId: body.settingId, name: body.name.trim(), slug: body.slug ?? null, order })
    .returning();
  return toModule(row!);
}

export async function updateModule(
  db: Executor,
  id: string,
  body: { settingId?: string; name?: string; slug?: string | null; order?: number },
): Promise<Module> {
  await moduleRow(db, id);
  if (body.settingId) await requireSetting(db, body.settingId);
  const [row] = await db
    .update(integrationModules)
    .set({ ...body, ...(body.name ? { name: body.name.trim() } : {}), updatedAt: new Date() })
    .where(eq(integrationModules.id, id))
    .returning();
  if (!row) throw new AppError('MODULE_NOT_FOUND');
  return toModule(row);
}

export async function deleteModule(db: Executor, id: string): Promise<void> {
  await moduleRow(db, id);
  await db.delete(integrationModules).where(eq(integrationModules.id, id));
}

/** Rewrites `order` to each id's position in the list; all ids must exist. */
export async function sortModules(db: Executor, ids: string[]): Promise<Module[]> {
  const unique = [...new Set(ids)];
  return db.transaction(async (tx) => {
    const found = await tx
      .select({ id: integrationModules.id })
      .from(integrationModules)
      .where(inArray(integrationModules.id, unique));
    if (found.length !== unique.length) throw new AppError('MODULE_NOT_FOUND');
    const now = new Date();
    for (const [order, id] of unique.entries()) {
      await tx.update(integrationModules).set({ order, updatedAt: now }).where(eq(integrationModules.id, id));
    }
    const rows = await tx
      .select()
      .from(integrationModules)
      .where(inArray(integrationModules.id, unique))
      .orderBy(asc(integrationModules.order));
    return rows.map(toModule);
  });
}

// ---- Settings (types) ----

export interface SettingView {
  /** Privileged callers see hidden and unavailable types too. */
  includeHidden: boolean;
}

async function toSettings(db: Executor, rows: IntegrationSettingRow[]): Promise<Setting[]> {
  if (rows.length === 0) return [];
  const categoryIds = [...new Set(rows.map((r) => r.categoryId).filter((id): id is string => id !== null))];
  const categories = categoryIds.length
    ? await db.select().from(integrationCategories).where(inArray(integrationCategories.id, categoryIds))
    : [];
  const categoryById = new Map(categories.map((c) => [c.id, c]));
  const modules = await db
    .select()
    .from(integrationModules)
    .where(
      inArray(
        integrationModules.settingId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(integrationModules.order), asc(integrationModules.createdAt));
  return rows.map((row) => {
    const available = isTypeAvailable(row.slug);
    const category = row.categoryId ? categoryById.get(row.categoryId) : undefined;
    return {
      _id: row.id,
      slug: row.slug,
      name: row.name,
      kind: row.kind,
      hidden: row.hidden || !available || STAFF_TYPES.has(row.slug),
      available,
      category: category ? { _id: category.id, name: category.name } : null,
      destinations: row.destinations.map((slug) => ({ slug })),
      tags: row.tags,
      modules: modules
        .filter((m) => m.settingId === row.id)
        .map((m) => ({ _id: m.id, name: m.name, slug: m.slug, order: m.order })),
    };
  });
}

export async function listSettings(db: Executor, view: SettingView): Promise<Setting[]> {
  const rows = await db.select().from(integrationSettings).orderBy(asc(integrationSettings.name));
  const settings = await toSettings(db, rows);
  return view.includeHidden ? settings : settings.filter((s) => !s.hidden);
}

async function settingRow(db: Executor, id: string): Promise<IntegrationSettingRow> {
  if (!isUuid(id)) throw new AppError('SETTING_NOT_FOUND');
  const [row] = await db.select().from(integrationSettings).where(eq(integrationSettings.id, id));
  if (!row) throw new AppError('SETTING_NOT_FOUND');
  return row;
}

export async function getSetting(db: Executor, id: string, view: SettingView): Promise<Setting> {
  const [setting] = await toSettings(db, [await settingRow(db, id)]);
  if (!setting || (!view.includeHidden && setting.hidden)) throw new AppError('SETTING_NOT_FOUND');
  return setting;
}

/** The catalogue entry of a type, or undefined when the slug is not in the catalogue. */
export async function findSettingBySlug(db: Executor, slug: string): Promise<IntegrationSettingRow | undefined> {
  const [row] = await db.select().from(integrationSettings).where(eq(integrationSettings.slug, slug));
  return row;
}

export async function settingsBySlug(db: Executor, slugs: string[]): Promise<Map<string, IntegrationSettingRow>> {
  if (slugs.length === 0) return new Map();
  const rows = await db.select().from(integrationSettings).where(inArray(integrationSettings.slug, slugs));
  return new Map(rows.map((r) => [r.slug, r]));
}

async function requireCategory(db: Executor, categoryId: string | null | undefined): Promise<void> {
  if (!categoryId) return;
  const [row] = await db
    .select({ id: integrationCategories.id })
    .from(integrationCategories)
    .where(eq(integrationCategories.id, categoryId));
  if (!row) {
    throw new AppError('CATEGORY_NOT_FOUND', { errors: [{ field: 'categoryId', code: 'CATEGORY_NOT_FOUND' }] });
  }
}

interface SettingBody {
  slug: string;
  name: string;
  kind: 'source' | 'destination';
  categoryId?: string | null;
  hidden?: boolean;
  destinations?: string[];
  tags?: string[];
}

const clean = (list: string[] | undefined) => (list ? [...new Set(list.map((s) => s.trim()))] : undefined);

export async function createSetting(db: Executor, body: SettingBody): Promise<Setting> {
  await requireCategory(db, body.categoryId);
  const [row] = await db
    .insert(integrationSettings)
    .values({
      slug: body.slug,
      name: body.name.trim(),
      kind: body.kind,
      categoryId: body.categoryId ?? null,
      hidden: body.hidden ?? false,
      destinations: body.kind === 'source' ? (clean(body.destinations) ?? []) : [],
      tags: clean(body.tags) ?? [],
    })
    .onConflictDoNothing({ target: integrationSettings.slug })
    .returning();
  if (!row) throw new AppError('SLUG_TAKEN', { errors: [{ field: 'slug', code: 'SLUG_TAKEN' }] });
  return getSetting(db, row.id, { includeHidden: true });
}

export async function updateSetting(
  db: Executor,
  id: string,
  body: Partial<Omit<SettingBody, 'slug' | 'kind'>>,
): Promise<Setting> {
  const existing = await settingRow(db, id);
  await requireCategory(db, body.categoryId);
  const destinations = clean(body.destinations);
  await db
    .update(integrationSettings)
    .set({
      ...(body.name !== undefined ? { name: body.name.trim() } : {}),
      ...(body.categoryId !== undefined ? { categoryId: body.categoryId } : {}),
      ...(body.hidden !== undefined ? { hidden: body.hidden } : {}),
      ...(destinations !== undefined ? { destinations: existing.kind === 'source' ? destinations : [] } : {}),
      ...(body.tags !== undefined ? { tags: clean(body.tags) } : {}),
      updatedAt: new Date(),
    })
    .where(eq(integrationSettings.id, id));
  return getSetting(db, id, { includeHidden: true });
}

/** Integrations of a deleted type stay (without a category); a shipped type comes back at the next start. */
export async function deleteSetting(db: Executor, id: string): Promise<void> {
  await settingRow(db, id);
  await db.delete(integrationSettings).where(eq(integrationSettings.id, id));
}
