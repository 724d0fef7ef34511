// Catalogue of integration types (spec 7 "Integrations", legacy admin paths). Reading is open to
// every signed-in user (the integration screens need the types); changing it is privileged.
import {
  isPrivileged,
  ZCategory,
  ZCategoryBody,
  ZCategoryPatch,
  ZModule,
  ZModuleBody,
  ZModulePatch,
  ZModuleSortBody,
  ZSetting,
  ZSettingBody,
  ZSettingPatch,
  ZSuccessResponse,
} from '@leadrelay/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Executor } from '../../db/client';
import { authOf } from '../../plugins/auth';
import { auditActor, recordAudit } from '../audit';
import * as catalogue from './catalogue.service';

const tags = ['catalogue'];
const base = '/api/legacy/api/admin/integration';
const ZIdParams = z.object({ id: z.string() });
const ok = { success: true as const };

type Kind = 'category' | 'module' | 'setting';

/** Runs a catalogue change and its audit entry in one transaction: both land or neither does. */
function audited<T>(
  app: FastifyInstance,
  req: FastifyRequest,
  kind: Kind,
  verb: 'create' | 'update' | 'delete' | 'sort',
  change: (tx: Executor) => Promise<{ result: T; id?: string; label?: string; details?: Record<string, unknown> }>,
): Promise<T> {
  return app.db.transaction(async (tx) => {
    const { result, id, label, details } = await change(tx);
    await recordAudit(tx, auditActor(req), {
      action: `catalogue.${kind}.${verb}`,
      targetType: kind,
      targetId: id ?? null,
      targetLabel: label ?? null,
      details,
    });
    return result;
  });
}

export async function catalogueRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app;

  // Categories
  r.get(
    `${base}/categories`,
    { config: { access: 'client' }, schema: { tags, response: { 200: z.array(ZCategory) } } },
    () => catalogue.listCategories(db),
  );
  r.get(
    `${base}/categories/:id`,
    { config: { access: 'client' }, schema: { tags, params: ZIdParams, response: { 200: ZCategory } } },
    (req) => catalogue.getCategory(db, req.params.id),
  );
  r.post(
    `${base}/categories`,
    { config: { access: 'privileged' }, schema: { tags, body: ZCategoryBody, response: { 201: ZCategory } } },
    async (req, reply) => {
      const created = await audited(app, req, 'category', 'create', async (tx) => {
        const result = await catalogue.createCategory(tx, req.body);
        return { result, id: result._id, label: result.name, details: req.body };
      });
      return reply.code(201).send(created);
    },
  );
  r.put(
    `${base}/categories/:id`,
    {
      config: { access: 'privileged' },
      schema: { tags, params: ZIdParams, body: ZCategoryPatch, response: { 200: ZCategory } },
    },
    (req) =>
      audited(app, req, 'category', 'update', async (tx) => {
        const result = await catalogue.updateCategory(tx, req.params.id, req.body);
        return { result, id: result._id, label: result.name, details: req.body };
      }),
  );
  r.delete(
    `${base}/categories/:id`,
    { config: { access: 'privileged' }, schema: { tags, params: ZIdParams, response: { 200: ZSuccessResponse } } },
    (req) =>
      audited(app, req, 'category', 'delete', async (tx) => {
        const before = await catalogue.getCategory(tx, req.params.id);
        await catalogue.deleteCategory(tx, req.params.id);
        return { result: ok, id: before._id, label: before.name };
      }),
  );

  // Modules
  r.get(
    `${base}/modules`,
    {
      config: { access: 'client' },
      schema: {
        tags,
        querystring: z.object({ settingId: z.string().optional() }),
        response: { 200: z.array(ZModule) },
      },
    },
    (req) => catalogue.listModules(db, req.query.settingId),
  );
  r.get(
    `${base}/modules/:id`,
    { config: { access: 'client' }, schema: { tags, params: ZIdParams, response: { 200: ZModule } } },
    (req) => catalogue.getModule(db, req.params.id),
  );
  r.post(
    `${base}/modules`,
    { config: { access: 'privileged' }, schema: { tags, body: ZModuleBody, response: { 201: ZModule } } },
    async (req, reply) => {
      const created = await audited(app, req, 'module', 'create', async (tx) => {
        const result = await catalogue.createModule(tx, req.body);
        return { result, id: result._id, label: result.name, details: req.body };
      });
      return reply.code(201).send(created);
    },
  );
  r.put(
    `${base}/modules/:id`,
    {
      config: { access: 'privileged' },
      schema: { tags, params: ZIdParams, body: ZModulePatch, response: { 200: ZModule } },
    },
    (req) =>
      audited(app, req, 'module', 'update', async (tx) => {
        const result = await catalogue.updateModule(tx, req.params.id, req.body);
        return { result, id: result._id, label: result.name, details: req.body };
      }),
  );
  r.delete(
    `${base}/modules/:id`,
    { config: { access: 'privileged' }, schema: { tags, params: ZIdParams, response: { 200: ZSuccessResponse } } },
    (req) =>
      audited(app, req, 'module', 'delete', async (tx) => {
        const before = await catalogue.getModule(tx, req.params.id);
        await catalogue.deleteModule(tx, req.params.id);
        return { result: ok, id: before._id, label: before.name };
      }),
  );
  r.post(
    '/api/admin/integration/modules/sort',
    { config: { access: 'privileged' }, schema: { tags, body: ZModuleSortBody, response: { 200: z.array(ZModule) } } },
    (req) =>
      audited(app, req, 'module', 'sort', async (tx) => {
        const result = await catalogue.sortModules(tx, req.body.ids);
        return { result, details: { ids: result.map((m) => m._id) } };
      }),
  );

  // Settings (integration types): clients get the visible ones, privileged users all of them.
  r.get(
    `${base}/settings`,
    { config: { access: 'client' }, schema: { tags, response: { 200: z.array(ZSetting) } } },
    (req) => catalogue.listSettings(db, { includeHidden: isPrivileged(authOf(req).user.role) }),
  );
  r.get(
    `${base}/settings/:id`,
    { config: { access: 'client' }, schema: { tags, params: ZIdParams, response: { 200: ZSetting } } },
    (req) => catalogue.getSetting(db, req.params.id, { includeHidden: isPrivileged(authOf(req).user.role) }),
  );
  r.post(
    `${base}/settings`,
    { config: { access: 'privileged' }, schema: { tags, body: ZSettingBody, response: { 201: ZSetting } } },
    async (req, reply) => {
      const created = await audited(app, req, 'setting', 'create', async (tx) => {
        const result = await catalogue.createSetting(tx, req.body);
        return { result, id: result._id, label: result.slug, details: req.body };
      });
      return reply.code(201).send(created);
    },
  );
  r.put(
    `${base}/settings/:id`,
    {
      config: { access: 'privileged' },
      schema: { tags, params: ZIdParams, body: ZSettingPatch, response: { 200: ZSetting } },
    },
    (req) =>
      audited(app, req, 'setting', 'update', async (tx) => {
        const result = await catalogue.updateSetting(tx, req.params.id, req.body);
        return { result, id: result._id, label: result.slug, details: req.body };
      }),
  );
  r.delete(
    `${base}/settings/:id`,
    { config: { access: 'privileged' }, schema: { tags, params: ZIdParams, response: { 200: ZSuccessResponse } } },
    (req) =>
      audited(app, req, 'setting', 'delete', async (tx) => {
        const before = await catalogue.getSetting(tx, req.params.id, { includeHidden: true });
        await catalogue.deleteSetting(tx, req.params.id);
        return { result: ok, id: before._id, label: before.slug };
      }),
  );
}
