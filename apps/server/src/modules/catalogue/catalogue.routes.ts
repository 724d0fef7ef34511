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
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf } from '../../plugins/auth';
import * as catalogue from './catalogue.service';

const tags = ['catalogue'];
const base = '/api/legacy/api/admin/integration';
const ZIdParams = z.object({ id: z.string() });
const ok = { success: true as const };

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
    async (req, reply) => reply.code(201).send(await catalogue.createCategory(db, req.body)),
  );
  r.put(
    `${base}/categories/:id`,
    {
      config: { access: 'privileged' },
      schema: { tags, params: ZIdParams, body: ZCategoryPatch, response: { 200: ZCategory } },
    },
    (req) => catalogue.updateCategory(db, req.params.id, req.body),
  );
  r.delete(
    `${base}/categories/:id`,
    { config: { access: 'privileged' }, schema: { tags, params: ZIdParams, response: { 200: ZSuccessResponse } } },
    async (req) => {
      await catalogue.deleteCategory(db, req.params.id);
      return ok;
    },
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
    async (req, reply) => reply.code(201).send(await catalogue.createModule(db, req.body)),
  );
  r.put(
    `${base}/modules/:id`,
    {
      config: { access: 'privileged' },
      schema: { tags, params: ZIdParams, body: ZModulePatch, response: { 200: ZModule } },
    },
    (req) => catalogue.updateModule(db, req.params.id, req.body),
  );
  r.delete(
    `${base}/modules/:id`,
    { config: { access: 'privileged' }, schema: { tags, params: ZIdParams, response: { 200: ZSuccessResponse } } },
    async (req) => {
      await catalogue.deleteModule(db, req.params.id);
      return ok;
    },
  );
  r.post(
    '/api/admin/integration/modules/sort',
    { config: { access: 'privileged' }, schema: { tags, body: ZModuleSortBody, response: { 200: z.array(ZModule) } } },
    (req) => catalogue.sortModules(db, req.body.ids),
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
    async (req, reply) => reply.code(201).send(await catalogue.createSetting(db, req.body)),
  );
  r.put(
    `${base}/settings/:id`,
    {
      config: { access: 'privileged' },
      schema: { tags, params: ZIdParams, body: ZSettingPatch, response: { 200: ZSetting } },
    },
    (req) => catalogue.updateSetting(db, req.params.id, req.body),
  );
  r.delete(
    `${base}/settings/:id`,
    { config: { access: 'privileged' }, schema: { tags, params: ZIdParams, response: { 200: ZSuccessResponse } } },
    async (req) => {
      await catalogue.deleteSetting(db, req.params.id);
      return ok;
    },
  );
}
