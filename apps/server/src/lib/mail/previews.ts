// Every mail with sample data, for the development preview (GET /api/dev/mail) and the tests that
// draw each one in both languages. A mail with variants (retry or reconnect, one lead or many)
// has an entry per variant.
import { type ConnectorConnections, connectors } from '@leadrelay/connectors';
import type { Locale } from '@leadrelay/shared';
import { credentialExpiryMail, droughtMail, weeklyReportMail } from './guardian-templates';
import {
  confirmEmailMail,
  connectionBrokenMail,
  heldLeadsDropMail,
  integrationBrokenMail,
  integrationRecoveredMail,
  leadsEscalatedMail,
  leadsHeldMail,
  type MailContext,
  operatorResetPasswordMail,
  renewalFailedMail,
  renewalPaidMail,
  resetPasswordMail,
  type Template,
} from './templates';

const prefix = (lang: Locale) => (lang === 'en' ? '/en' : '');
const screen = (ctx: MailContext, path: string) => `${ctx.publicUrl}${prefix(ctx.lang)}${path}`;
const SAMPLE_TOKEN = 'sample-token-0123456789abcdef';
const INTEGRATION = '/admin/integrations/http/3f1c2a9e-5b7d-4e8f-9a0b-1c2d3e4f5a6b';
const RETRY_AT = new Date('2026-03-14T09:30:00Z');
const DROP_AT = new Date('2026-03-21T00:00:00Z');
/** The first connector with account connections: the connection mails' sample speaks in its words. */
const CONNECTIONS = [...connectors.values()].find((c) => c.connections)?.connections as ConnectorConnections;
/** A destination signed in with OAuth (a CRM whose refresh token can lapse), for the samples that need one. */
const OAUTH_SLUG = [...connectors.values()].find((c) => c.oauth && c.kind === 'destination')?.slug;

export const MAIL_PREVIEWS = {
  'leads-escalated': (ctx) =>
    leadsEscalatedMail(
      ctx,
      [
        { lead: 'Олена Коваль', source: 'Заявки з сайту', from: 'Ірина', to: 'Андрій' },
        { lead: '+380501234567', source: 'Реклама: весняна кампанія', from: 'Андрій', to: 'Марта' },
      ],
      screen(ctx, '/admin'),
    ),
  'leads-escalated-one': (ctx) =>
    leadsEscalatedMail(
      ctx,
      [{ lead: '', source: 'Заявки з сайту', from: 'Ірина', to: 'Андрій' }],
      screen(ctx, '/admin'),
    ),
  confirm: (ctx) => confirmEmailMail(ctx, `${screen(ctx, '/confirm')}?token=${SAMPLE_TOKEN}`),
  'reset-password': (ctx) => resetPasswordMail(ctx, screen(ctx, `/password/${SAMPLE_TOKEN}`)),
  'operator-reset-password': (ctx) => operatorResetPasswordMail(ctx, screen(ctx, `/password/${SAMPLE_TOKEN}`)),
  'integration-broken': (ctx) =>
    integrationBrokenMail(ctx, {
      name: 'Заявки з сайту → CRM',
      reason: 'HTTP 503: Service Unavailable',
      retryAt: RETRY_AT,
      link: screen(ctx, INTEGRATION),
    }),
  'integration-broken-reconnect': (ctx) =>
    integrationBrokenMail(ctx, {
      name: 'CRM: продажі',
      reason: 'HTTP 401: invalid_grant',
      retryAt: null,
      link: screen(ctx, `/admin/integrations/${OAUTH_SLUG ?? ''}`),
    }),
  'integration-recovered': (ctx) => integrationRecoveredMail(ctx, 'Заявки з сайту → CRM', screen(ctx, INTEGRATION)),
  'connection-broken': (ctx) =>
    connectionBrokenMail(ctx, CONNECTIONS.mail, {
      name: 'Олена Коваль',
      reason: 'AUTH',
      link: screen(ctx, CONNECTIONS.login.screen),
    }),
  'leads-held': (ctx) => leadsHeldMail(ctx, 'plan_expired', screen(ctx, '/admin/plan')),
  'leads-held-limit': (ctx) => leadsHeldMail(ctx, 'monthly_limit', screen(ctx, '/admin/plan')),
  'held-leads-drop': (ctx) =>
    heldLeadsDropMail(ctx, { reason: 'plan_expired', count: 23, dropAt: DROP_AT, link: screen(ctx, '/admin/plan') }),
  'held-leads-drop-one': (ctx) =>
    heldLeadsDropMail(ctx, { reason: 'monthly_limit', count: 1, dropAt: DROP_AT, link: screen(ctx, '/admin/plan') }),
  'renewal-paid': (ctx) => renewalPaidMail(ctx, 'Бізнес', '2026-04-14', screen(ctx, '/admin/billing')),
  'renewal-failed': (ctx) =>
    renewalFailedMail(ctx, {
      plan: 'Бізнес',
      expDate: '2026-03-14',
      nextTry: '2026-03-17',
      link: screen(ctx, '/admin/plan'),
    }),
  'renewal-failed-final': (ctx) =>
    renewalFailedMail(ctx, { plan: 'Бізнес', expDate: null, nextTry: null, link: screen(ctx, '/admin/plan') }),
  'guardian-drought': (ctx) =>
    droughtMail(ctx, {
      name: 'Заявки з сайту',
      silentSince: new Date('2026-03-10T07:40:00Z'),
      expected: 12.4,
      link: screen(ctx, '/admin/guardian'),
    }),
  'guardian-expiry-refresh': (ctx) =>
    credentialExpiryMail(ctx, {
      name: 'CRM: продажі',
      service: 'CRM',
      expiresAt: new Date('2026-03-21T09:30:00Z'),
      renewal: 'refresh',
      link: screen(ctx, `/admin/integrations/${OAUTH_SLUG ?? ''}/3f1c2a9e-5b7d-4e8f-9a0b-1c2d3e4f5a6b`),
    }),
  'guardian-expiry-connection': (ctx) =>
    credentialExpiryMail(ctx, {
      name: 'Олена Коваль',
      service: CONNECTIONS.brand,
      expiresAt: new Date('2026-03-15T09:30:00Z'),
      renewal: { login: { uk: CONNECTIONS.mail.uk.renew, en: CONNECTIONS.mail.en.renew } },
      link: screen(ctx, CONNECTIONS.login.screen),
    }),
  'guardian-weekly': (ctx) =>
    weeklyReportMail(ctx, {
      from: new Date('2026-03-09T00:00:00+02:00'),
      to: new Date('2026-03-15T12:00:00+02:00'),
      totals: { received: 148, delivered: 141, held: 0, failed: 2 },
      speed: {
        reacted: 131,
        medianMs: 6.5 * 60_000,
        p90Ms: 48 * 60_000,
        within: { '5': 0.41, '15': 0.72, '60': 0.86 },
        neverTaken: 17,
      },
      sources: [
        { name: 'Заявки з сайту', received: 102, delivered: 99, held: 0, failed: 1 },
        { name: 'Реклама: весняна кампанія', received: 46, delivered: 42, held: 0, failed: 1 },
      ],
      link: screen(ctx, '/admin/speed'),
    }),
} satisfies Record<string, (ctx: MailContext) => Promise<Template>>;

export type MailPreviewName = keyof typeof MAIL_PREVIEWS;
export const MAIL_PREVIEW_NAMES = Object.keys(MAIL_PREVIEWS) as MailPreviewName[];
