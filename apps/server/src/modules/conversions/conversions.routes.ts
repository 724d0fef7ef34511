// Conversion events' API (issue 33; docs/api.md "Conversion events"): a source integration's
// settings and the datasets its connection reaches, and the dashboard's count. The lead log's part
// is GET /api/hook/{id} `conversions`.
import { type ConversionSettings, ZConversionSettingsBody, ZConversionStatisticQuery } from '@leadrelay/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf } from '../../plugins/auth';
import { connectionDeps } from '../connections';
import {
  conversionDatasets,
  conversionStatistic,
  getConversionSettings,
  putConversionSettings,
} from './conversions.service';

const ZIdParams = z.object({ id: z.string().max(100) });

export async function conversionsRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['conversions'];

  r.get(
    '/api/integrations/:id/capi',
    {
      config: { access: 'client' },
      schema: {
        tags,
        summary: "A source integration's conversion events: on or off, the dataset, the stage → event mapping, a hold",
        params: ZIdParams,
      },
    },
    (req): Promise<ConversionSettings> => getConversionSettings(app.db, authOf(req).user, req.params.id),
  );

  r.put(
    '/api/integrations/:id/capi',
    {
      config: { access: 'client' },
      schema: {
        tags,
        summary: "Stores a source integration's conversion events settings; switching on needs a dataset",
        params: ZIdParams,
        body: ZConversionSettingsBody,
      },
    },
    (req): Promise<ConversionSettings> => putConversionSettings(app.db, authOf(req).user, req.params.id, req.body),
  );

  r.get(
    '/api/integrations/:id/capi/datasets',
    {
      config: { access: 'client' },
      schema: {
        tags,
        summary: "The datasets (pixels) the source integration's account connection can send conversion events to",
        params: ZIdParams,
      },
    },
    async (req) => ({ datasets: await conversionDatasets(connectionDeps(app), authOf(req).user, req.params.id) }),
  );

  r.get(
    '/api/conversions/statistic',
    {
      config: { access: 'client' },
      schema: {
        tags,
        summary: "Conversion events sent per day (the account's time zone), and how many wait or failed",
        querystring: ZConversionStatisticQuery,
      },
    },
    (req) => conversionStatistic(app.db, authOf(req).user.id, req.query.days),
  );
}
