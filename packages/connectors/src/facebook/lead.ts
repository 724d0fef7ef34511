// A Meta lead (Graph API GET /{leadgen-id}) as the flat payload our ingest takes like a webhook body:
// the server builds it from the lead it fetched, and the web builds the mapping preview of a form
// with the same function, so what the user maps is what arrives.
import { setOwn } from '@leadrelay/shared';

/** A lead as the Graph API answers it (the fields LeadRelay asks for). */
export interface MetaLead {
  id: string;
  created_time: string;
  form_id?: string;
  ad_id?: string;
  ad_name?: string;
  adset_id?: string;
  adset_name?: string;
  campaign_id?: string;
  campaign_name?: string;
  is_organic?: boolean;
  platform?: string;
  field_data: { name: string; values: string[] }[];
}

/**
 * A question key as a payload key: the default mapping and dotted paths take [A-Za-z0-9_-] only, so
 * anything else becomes "_" (a key of nothing but such characters becomes question_<n>).
 */
function payloadKey(key: string, index: number): string {
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
export function graphLeadPayload(lead: MetaLead): Record<string, string> {
  const payload: Record<string, string> = {};
  (lead.field_data ?? []).forEach((field, index) => {
    if (!field || typeof field.name !== 'string') return;
    const values = (Array.isArray(field.values) ? field.values : [])
      .map((v) => (v === null || v === undefined ? '' : String(v).trim()))
      .filter((v) => v !== '');
    if (!values.length) return;
    // A question's key is the form author's: `__proto__` or `constructor` is a field like any other.
    setOwn(payload, payloadKey(field.name, index), values.join(', '));
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
    if (value !== undefined && value !== null && value !== '') setOwn(payload, key, String(value));
    else delete payload[key];
  }
  return payload;
}
