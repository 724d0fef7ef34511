// The Pipedrive–SendPulse widget (spec 2 "Widget", 7 "Pipedrive": GET /api/legacy/api/pipedrive/sendpulse).
// The URL route is the signed-in account's; the panel's routes are public and authorised by the
// signed widget token they carry.
import { ZSuccessResponse, ZWidgetData, ZWidgetMessageBody, ZWidgetQuery, ZWidgetUrl } from '@leadrelay/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf } from '../../plugins/auth';
import * as service from './widget.service';

const tags = ['widget'];
const ZIntegrationParams = z.object({ integrationId: z.string() });

export async function widgetRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { deps } = app;

  r.get(
    '/api/pipedrive/widget/:integrationId',
    { config: { access: 'client' }, schema: { tags, params: ZIntegrationParams, response: { 200: ZWidgetUrl } } },
    (req) => service.widgetUrl(deps, authOf(req).user, req.params.integrationId),
  );
  r.get(
    '/api/legacy/api/pipedrive/sendpulse',
    {
      config: { access: 'public', rateLimit: 'widget' },
      schema: { tags, querystring: ZWidgetQuery, response: { 200: ZWidgetData } },
    },
    (req) => service.widgetData(deps, req.query.token, req.query.personId),
  );
  r.post(
    '/api/legacy/api/pipedrive/sendpulse/message',
    {
      config: { access: 'public', rateLimit: 'widget' },
      schema: { tags, body: ZWidgetMessageBody, response: { 200: ZSuccessResponse } },
    },
    (req) => service.sendWidgetMessage(deps, req.body),
  );
}
