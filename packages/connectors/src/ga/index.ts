// The Google Analytics 4 destination: one Measurement Protocol event per lead (generate_lead by
// default) with value and currency, UTM and mapped parameters, client_id from the `_ga` cookie or
// derived from the lead. Google takes anything with a 2xx and drops what breaks its limits without
// a word, so the payload is checked first: a broken limit is a permanent error with a code (a name
// or count the settings got wrong also marks the integration broken). "Send a test lead" goes to
// the validation server instead (gaDebug).
import type { Lead } from '@leadrelay/shared';
import { defineConnector } from '../kit/define-connector';
import { PermanentError } from '../kit/errors';
import { collect, type GaContext, hostFor, validate } from './client';
import { codes } from './codes';
import { toGaPayload } from './mapping';
import { SAMPLE_TEST_LEAD } from './sample';
import {
  type GaAuth,
  type GaDebugBody,
  type GaDebugResult,
  type GaIssue,
  type GaSettings,
  gaPayloadIssues,
  ZGaAuth,
  ZGaDebugBody,
  ZGaDebugResult,
  ZGaSettings,
} from './schema';

export { GA_API_URL, GA_EU_API_URL, type GaContext, hostFor } from './client';
export { clientIdFromCookie, derivedClientId, toGaPayload } from './mapping';

/** Issues the settings cause (the event's name, a parameter's name, their count): the integration is broken until fixed. */
const isConfiguration = (issue: GaIssue) => /^GA_(NAME_|TOO_MANY_PARAMS)/.test(issue.code);

function checked(lead: Lead, settings: GaSettings, key: string) {
  const payload = toGaPayload(lead, settings, key);
  return { payload, issues: gaPayloadIssues(payload) };
}

/**
 * "Send a test lead": the event a lead (default a sample) becomes, our own check of the protocol's
 * limits and, when that passes, Google's validation server's messages. Nothing is recorded.
 */
export async function gaDebug(ctx: GaContext, lead: Lead = SAMPLE_TEST_LEAD): Promise<GaDebugResult> {
  const { payload, issues } = checked(lead, ctx.settings, `test-${Date.now()}:ga`);
  if (issues.length) return { valid: false, issues, validationMessages: [], payload };
  const { messages } = await validate(ctx, payload);
  return { valid: messages.length === 0, issues, validationMessages: messages, payload };
}

export const ga = defineConnector<GaAuth, GaSettings>({
  slug: 'ga',
  kind: 'destination',
  codes,
  // EMULATORS=true (demo installs, end-to-end tests): its emulator, loaded only then.
  demo: () => import('./demo').then((m) => m.startDemo()),
  connectAuth: 'manual',
  auth: ZGaAuth,
  settings: ZGaSettings,
  config: { GA_API_URL: { type: 'url', default: 'https://www.google-analytics.com' } },
  baseUrl: (cfg) => cfg.GA_API_URL as string | undefined,
  // Google checks neither the secret nor the measurement id anywhere we can call: the settings are
  // checked against the validation server with a sample lead.
  async testConnection(ctx) {
    const result = await gaDebug(ctx);
    const first = result.issues[0]?.code ?? result.validationMessages[0]?.validationCode;
    if (first) throw new PermanentError(`GA_VALIDATION_FAILED: ${first}`, { code: 'CONFIGURATION' });
  },
  actions: {
    // "Send a test lead" on the integration's page (and POST /api/ga/debug/{id}, kept for API users).
    debug: {
      body: ZGaDebugBody,
      response: ZGaDebugResult,
      run: (ctx, body) => {
        const lead = (body as GaDebugBody | undefined)?.lead;
        return gaDebug(ctx, lead ? { ...lead, custom: lead.custom ?? {} } : undefined);
      },
    },
  },
  aliases: [{ method: 'POST', path: '/api/ga/debug/:id', action: 'debug' }],
  async deliver(ctx, input) {
    const { payload, issues } = checked(input.lead, ctx.settings, input.idempotencyKey);
    const [issue] = issues;
    if (issue) {
      throw new PermanentError(issue.path ? `${issue.code}: ${issue.path}` : issue.code, {
        code: isConfiguration(issue) ? 'CONFIGURATION' : issue.code,
        // What would have gone (it did not): the attempt log shows the payload the limit is about.
        request: { method: 'POST', url: `${hostFor(ctx.baseUrl, ctx.settings.region)}/mp/collect`, body: payload },
      });
    }
    return collect(ctx, payload);
  },
});

export { ZGaAuth, ZGaSettings };
