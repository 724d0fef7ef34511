// Billing and plans (spec 7): paying, the saved card, orders and invoices; and the provider's
// server-to-server callback, public and proven by its signature.
import formbody from '@fastify/formbody';
import {
  LOCALES,
  ZInvoice,
  ZInvoiceList,
  ZOrder,
  ZOrderList,
  ZPageQuery,
  ZPaymentAnswer,
  ZPaymentAuthQuery,
  ZPaymentMethodAnswer,
  ZSubscribeBody,
  ZSuccessResponse,
} from '@leadrelay/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SellerConfig } from '../../config';
import { AppError } from '../../lib/app-error';
import { authOf } from '../../plugins/auth';
import * as billing from './billing.service';
import { applyEvent, type PaymentsDeps, refund, renewNow, startPayment } from './payments.service';

const tags = ['billing'];
const ZIdParams = z.object({ id: z.string().max(100) });
const ZLangQuery = z.object({ lang: z.enum(LOCALES).optional() }).strict();
/** A provider's callback: a few form fields (LiqPay: data and signature); anything bigger is not one. */
const CALLBACK_BODY_LIMIT_BYTES = 64 * 1024;

export interface PaymentsRoutesOptions {
  deps: PaymentsDeps;
  seller: SellerConfig;
}

export async function paymentsRoutes(app: FastifyInstance, options: PaymentsRoutesOptions): Promise<void> {
  const { deps, seller } = options;
  const { db } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();
  // The provider posts form-encoded fields; this plugin's scope only.
  await app.register(formbody, { bodyLimit: CALLBACK_BODY_LIMIT_BYTES });

  const pay = { 200: ZPaymentAnswer };
  r.post(
    '/api/subscriptions/subscribe',
    { config: { access: 'client' }, schema: { tags, body: ZSubscribeBody, response: pay } },
    async (req) => ({ data: await startPayment(deps, authOf(req).user, req.body, 'saved') }),
  );
  r.post(
    '/api/payment/subscribe',
    { config: { access: 'client' }, schema: { tags, body: ZSubscribeBody, response: pay } },
    async (req) => ({ data: await startPayment(deps, authOf(req).user, req.body, 'saved') }),
  );
  r.get(
    '/api/payment/auth',
    { config: { access: 'client' }, schema: { tags, querystring: ZPaymentAuthQuery, response: pay } },
    async (req) => ({ data: await startPayment(deps, authOf(req).user, req.query, 'new') }),
  );
  r.get(
    '/api/payment/renew',
    { config: { access: 'client' }, schema: { tags, querystring: ZLangQuery, response: pay } },
    async (req) => ({ data: await renewNow(deps, authOf(req).user, req.query.lang) }),
  );
  r.get(
    '/api/payment/method',
    {
      config: { access: 'client' },
      schema: { tags, querystring: ZLangQuery, response: { 200: ZPaymentMethodAnswer } },
    },
    async (req) => ({ data: await billing.paymentMethod(db, authOf(req).user.id) }),
  );
  r.delete(
    '/api/payment/method',
    { config: { access: 'client' }, schema: { tags, response: { 200: ZSuccessResponse } } },
    async (req) => {
      await billing.removePaymentMethod(db, authOf(req).user.id);
      return { success: true as const };
    },
  );

  r.get(
    '/api/invoices',
    { config: { access: 'client' }, schema: { tags, querystring: ZPageQuery, response: { 200: ZInvoiceList } } },
    (req) => billing.listInvoices(db, authOf(req).user.id, req.query.page, req.query.limit),
  );
  r.get(
    '/api/invoices/:id',
    {
      config: { access: 'client' },
      schema: { tags, params: ZIdParams, response: { 200: z.object({ data: ZInvoice }) } },
    },
    (req) => billing.getInvoice(db, authOf(req).user.id, req.params.id),
  );
  r.get(
    '/api/invoices/:id/pdf',
    { config: { access: 'client' }, schema: { tags, params: ZIdParams, querystring: ZLangQuery } },
    async (req, reply) => {
      const { user } = authOf(req);
      const lang = req.query.lang ?? (user.lang === 'en' ? 'en' : 'uk');
      const { number, pdf } = await billing.invoicePdf(db, user.id, req.params.id, seller, lang);
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${number}.pdf"`)
        .header('cache-control', 'private, no-store')
        .send(pdf);
    },
  );
  r.get(
    '/api/orders',
    { config: { access: 'client' }, schema: { tags, querystring: ZPageQuery, response: { 200: ZOrderList } } },
    (req) => billing.listOrders(db, authOf(req).user.id, req.query.page, req.query.limit, deps.checkoutLifetimeMs),
  );
  r.post(
    '/api/orders/:id/refund',
    { config: { access: 'owner' }, schema: { tags, params: ZIdParams, response: { 200: z.object({ data: ZOrder }) } } },
    async (req) => ({ data: await refund(deps, req.params.id) }),
  );

  r.post(
    '/api/payment/callback',
    {
      // The provider retries a refused callback until it gives up: text is cleaned, not refused (plugins/input).
      config: { access: 'public', textPolicy: 'clean' },
      bodyLimit: CALLBACK_BODY_LIMIT_BYTES,
      schema: { tags, summary: "The payment provider's signed server-to-server callback", hide: true },
    },
    async (req, reply) => {
      const provider = deps.provider;
      if (!provider) throw new AppError('PAYMENT_NOT_CONFIGURED');
      const body = req.body && typeof req.body === 'object' ? (req.body as Record<string, unknown>) : {};
      const event = provider.verifyCallback(body);
      if (!event) {
        await billing.recordForged(db, provider.name, body, req.ip);
        req.log.warn({ ip: req.ip }, 'payment callback with a bad signature refused');
        throw new AppError('SIGNATURE_INVALID');
      }
      await applyEvent(deps, event, { source: 'callback', remoteAddress: req.ip });
      return reply.send({ ok: true });
    },
  );
}
