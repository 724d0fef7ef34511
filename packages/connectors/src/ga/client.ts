// The only file of the GA4 connector that does HTTP (always through ctx.fetch): POST
// {host}/mp/collect or /debug/mp/collect ?measurement_id=…&api_secret=…. Collection answers 2xx to
// anything it receives (204 in practice), so only a transport failure shows here; the validation
// server answers 200 with validationMessages.

import { fetchWithTrace } from '../kit/client-kit';
import { RetryableError } from '../kit/errors';
import { classifyResponse, redact, redactUrl } from '../kit/http-errors';
import type { AttemptTrace, ConnectorContext } from '../kit/types';
import type { GaAuth, GaPayload, GaSettings } from './schema';

export type GaContext = ConnectorContext<GaAuth, GaSettings>;

export const GA_API_URL = 'https://www.google-analytics.com';
/** Google's EU collection host (Measurement Protocol reference: "if you want your data collected in the EU"). */
export const GA_EU_API_URL = 'https://region1.google-analytics.com';

/**
 * Where events go: the configured host (GA_API_URL); with region eu, Google's EU host instead of its
 * global one. A configured host of our own (an emulator, a proxy) takes both regions.
 */
export function hostFor(baseUrl: string | undefined, region: GaSettings['region']): string {
  const base = (baseUrl ?? GA_API_URL).replace(/\/+$/, '');
  return region === 'eu' && base === GA_API_URL ? GA_EU_API_URL : base;
}

export interface ValidationMessage {
  fieldPath: string;
  description: string;
  validationCode: string;
}

async function post(ctx: GaContext, path: string, payload: GaPayload) {
  const url = new URL(`${hostFor(ctx.baseUrl, ctx.settings.region)}${path}`);
  url.searchParams.set('measurement_id', ctx.settings.measurementId);
  url.searchParams.set('api_secret', ctx.auth.apiSecret);
  const headers = { 'content-type': 'application/json' };
  const trace: AttemptTrace = {
    request: { method: 'POST', url: redactUrl(url), headers: redact(headers), body: payload },
  };
  const res = await fetchWithTrace(
    ctx.fetch,
    url.toString(),
    { method: 'POST', headers, body: JSON.stringify(payload), signal: ctx.signal },
    trace,
  );
  return classifyResponse(res, trace);
}

/** Sends the events; resolves with the trace on any 2xx (which is all Google ever says). */
export async function collect(ctx: GaContext, payload: GaPayload): Promise<AttemptTrace> {
  return (await post(ctx, '/mp/collect', payload)).trace;
}

/** Google's validation server's messages for the payload (nothing is recorded there). */
export async function validate(
  ctx: GaContext,
  payload: GaPayload,
): Promise<{ messages: ValidationMessage[]; trace: AttemptTrace }> {
  const { body, status, trace } = await post(ctx, '/debug/mp/collect', payload);
  const list = (body as { validationMessages?: unknown } | undefined)?.validationMessages;
  if (!Array.isArray(list)) {
    throw new RetryableError('GA_DEBUG_UNEXPECTED: the validation server answered without validationMessages', {
      ...trace,
      httpStatus: status,
      code: 'HTTP_UNEXPECTED',
    });
  }
  const messages = list.map((m: Record<string, unknown>) => ({
    fieldPath: String(m.fieldPath ?? ''),
    description: String(m.description ?? ''),
    validationCode: String(m.validationCode ?? ''),
  }));
  return { messages, trace };
}
