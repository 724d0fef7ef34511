// Collections (spec 7 "Collections", prefix /api/legacy): the signed-in account's own lists.
import {
  ZAwayBody,
  ZCollection,
  ZCollectionBody,
  ZCollectionItemBody,
  ZCollectionList,
  ZCollectionListQuery,
  ZCollectionPatch,
  ZSuccessResponse,
} from '@leadrelay/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf } from '../../plugins/auth';
import { forgetSourcesAfterWrites } from '../ingest';
import * as service from './collections.service';

const tags = ['collections'];
const base = '/api/legacy/api/admin/collection';
const ZIdParams = z.object({ id: z.string() });

export async function collectionsRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app;
  const user = (req: Parameters<typeof authOf>[0]) => authOf(req).user;
  forgetSourcesAfterWrites(app);

  r.get(
    base,
    {
      config: { access: 'client' },
      schema: { tags, querystring: ZCollectionListQuery, response: { 200: ZCollectionList } },
    },
    (req) => service.listCollections(db, user(req), req.query),
  );
  r.post(
    base,
    { config: { access: 'client' }, schema: { tags, body: ZCollectionBody, response: { 201: ZCollection } } },
    async (req, reply) => reply.code(201).send(await service.createCollection(db, user(req), req.body)),
  );
  r.get(
    `${base}/:id`,
    { config: { access: 'client' }, schema: { tags, params: ZIdParams, response: { 200: ZCollection } } },
    (req) => service.getCollection(db, user(req), req.params.id),
  );
  r.put(
    `${base}/:id`,
    {
      config: { access: 'client' },
      schema: { tags, params: ZIdParams, body: ZCollectionPatch, response: { 200: ZCollection } },
    },
    (req) => service.updateCollection(db, user(req), req.params.id, req.body),
  );
  r.delete(
    `${base}/:id`,
    { config: { access: 'client' }, schema: { tags, params: ZIdParams, response: { 200: ZSuccessResponse } } },
    async (req) => {
      await service.deleteCollection(db, user(req), req.params.id);
      return { success: true as const };
    },
  );
  r.put(
    `${base}/:id/items`,
    {
      config: { access: 'client' },
      schema: { tags, params: ZIdParams, body: ZCollectionItemBody, response: { 200: ZCollection } },
    },
    (req) => service.addItem(db, user(req), req.params.id, req.body),
  );
  r.delete(
    `${base}/:id/items/:itemId`,
    {
      config: { access: 'client' },
      schema: { tags, params: z.object({ id: z.string(), itemId: z.string() }), response: { 200: ZCollection } },
    },
    (req) => service.removeItem(db, user(req), req.params.id, req.params.itemId),
  );
  // Issue 19: the quick "away" switch of one manager (the bot's /away and /back write the same key).
  r.put(
    `${base}/:id/items/:itemId/away`,
    {
      config: { access: 'client' },
      schema: {
        tags,
        params: z.object({ id: z.string(), itemId: z.string() }),
        body: ZAwayBody,
        response: { 200: ZCollection },
      },
    },
    (req) => service.setItemAway(db, user(req), req.params.id, req.params.itemId, req.body.away),
  );
}
