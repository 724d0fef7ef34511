// Security headers on every answer (@fastify/helmet; docs/operations.md, "Security headers"):
// a Content-Security-Policy for the web app, frame-ancestors allowing only what must frame us
// (our own checkout return page; a CRM for the widgets it shows), HSTS when PUBLIC_URL is https.
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

export interface SecurityHeadersOptions {
  publicUrl: string;
  /** Origins the checkout form posts to and is shown from (the payment provider's page). */
  checkoutOrigins: string[];
  /** Where the support chat's script comes from (SUPPORT_CHAT_SCRIPT_URL), if set. */
  supportChatOrigin?: string;
}

/** Pages another site embeds on purpose: a widget lives in a CRM's frame (its panel). */
const WIDGET_PATH = /^\/(en\/)?widgets\//;
const PIPEDRIVE = 'https://*.pipedrive.com';
const FACEBOOK = ['https://connect.facebook.net', 'https://*.facebook.com'];

export const originOf = (url: string | undefined) => {
  if (!url) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
};

export async function setupSecurityHeaders(app: FastifyInstance, options: SecurityHeadersOptions): Promise<void> {
  const chat = options.supportChatOrigin ? [options.supportChatOrigin] : [];
  await app.register(helmet, {
    // X-Frame-Options cannot name Pipedrive; frame-ancestors below says who may frame us.
    frameguard: false,
    // The Facebook login and the checkout open windows that talk back to us.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    crossOriginEmbedderPolicy: false,
    // News images appear in link previews and the widget's assets in Pipedrive's frame.
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    hsts: options.publicUrl.startsWith('https:') ? { maxAge: 15_552_000, includeSubDomains: false } : false,
    // Set below from two strings made once: helmet re-parses its directives on every answer when
    // one of them depends on the request (about 6 % of the server's busy time in the ingest benchmark).
    contentSecurityPolicy: false,
  });

  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'base-uri': ["'self'"],
    'object-src': ["'none'"],
    'script-src': ["'self'", ...FACEBOOK, ...chat],
    // antd writes its styles at run time (CSS-in-JS).
    'style-src': ["'self'", "'unsafe-inline'", ...chat],
    'img-src': ["'self'", 'data:', 'blob:', 'https:'],
    'font-src': ["'self'", 'data:', ...chat],
    // Same-origin API and socket.io (ws: and wss: for browsers that read 'self' narrowly).
    'connect-src': ["'self'", 'ws:', 'wss:', ...FACEBOOK, ...chat],
    'frame-src': ["'self'", ...FACEBOOK, ...options.checkoutOrigins, ...chat],
    'form-action': ["'self'", ...options.checkoutOrigins],
    ...(options.publicUrl.startsWith('https:') ? { 'upgrade-insecure-requests': [] } : {}),
  };
  const policy = (ancestors: string[]) =>
    Object.entries({ ...directives, 'frame-ancestors': ancestors })
      .map(([name, values]) => [name, ...values].join(' '))
      .join(';');
  const appPolicy = policy(["'self'"]);
  const widgetPolicy = policy(["'self'", PIPEDRIVE]);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('content-security-policy', WIDGET_PATH.test(request.url) ? widgetPolicy : appPolicy);
  });
}
