// A Meta lead (GET /{leadgen-id}) as a flat payload the ingest pipeline takes like a webhook body, so
// the integration's own mapping, filters and dedupe (sourceIdField 'leadgen_id') apply to it unchanged,
// and as the Lead that payload becomes under the default mapping.
import { applyMapping, type Lead } from '@leadrelay/shared';
import type { GraphLead } from './client';

/** Payload keys that carry the lead's identity and ad attribution (a question cannot overwrite them). */
export const FB_META_KEYS = [
  'leadgen_id',
  'created_time',
  'fb_form_id',
  'fb_ad_id',
  'fb_ad_name',
  'fb_adset_id',
  'fb_adset_name',
  'fb_campaign_id',
  'fb_campaign_name',
  'fb_platform',
  'fb_is_organic',
] as const;

/**
 * A question key as a payload key: the default mapping and dotted paths take [A-Za-z0-9_-] only, so
 * anything else becomes "_" (a key of nothing but such characters becomes question_<n>).
 */
export function payloadKey(key: string, index: number): string {
  const safe = key
    .trim()
    .replace(/[^A-Za-z0-9_-]/g, '_')
    .slice(0, 64);
  return /[A-Za-z0-9]/.test(safe) ? safe : `question_${index + 1}`;
}

/**
 * The flat payload of a Meta lead: every answer by its question key (several values joined with ", "),
 * full_name made of first_name and last_name when the form asks for those, utm_source "facebook",
 * utm_campaign the campaign name, and the ids as leadgen_id and fb_*.
 */
export function graphLeadPayload(lead: GraphLead): Record<string, string> {
  const payload: Record<string, string> = {};
  (lead.field_data ?? []).forEach((field, index) => {
    if (!field || typeof field.name !== 'string') return;
    const values = (Array.isArray(field.values) ? field.values : [])
      .map((v) => (v === null || v === undefined ? '' : String(v).trim()))
      .filter((v) => v !== '');
    if (!values.length) return;
    payload[payloadKey(field.name, index)] = values.join(', ');
  });
  if (!payload.full_name) {
    const full = [payload.first_name, payload.last_name].filter(Boolean).join(' ');
    if (full) payload.full_name = full;
  }
  payload.utm_source ??= 'facebook';
  if (lead.campaign_name) payload.utm_campaign ??= lead.campaign_name;

  payload.leadgen_id = String(lead.id);
  if (lead.created_time) payload.created_time = lead.created_time;
  const meta: [string, string | boolean | undefined][] = [
    ['fb_form_id', lead.form_id],
    ['fb_ad_id', lead.ad_id],
    ['fb_ad_name', lead.ad_name],
    ['fb_adset_id', lead.adset_id],
    ['fb_adset_name', lead.adset_name],
    ['fb_campaign_id', lead.campaign_id],
    ['fb_campaign_name', lead.campaign_name],
    ['fb_platform', lead.platform],
    ['fb_is_organic', lead.is_organic],
  ];
  for (const [key, value] of meta) {
    if (value !== undefined && value !== null && value !== '') payload[key] = String(value);
    else delete payload[key];
  }
  return payload;
}

/**
 * The Lead a Meta lead becomes without an integration mapping: full_name (or first + last) → name,
 * email (lower case), phone_number → phone (E.164 when it reads as a number, else as written),
 * every other answer and the fb_* ids → custom, utm.source "facebook", utm.campaign the campaign name.
 */
export function leadFromGraph(lead: GraphLead): Lead {
  return applyMapping(graphLeadPayload(lead), undefined);
}
