// A TikTok Instant Form lead (one `entry` of the LEAD webhook, docs/connectors/tiktok.md) as the flat
// payload our ingest takes like a webhook body. The webhook carries the answers themselves (TikTok
// documents no read of one lead by its id), so the receiver builds this payload and the stored event
// keeps it until the worker ingests it. The web builds the mapping preview of a form with the same
// function, so what the user maps is what arrives.
import { setOwn } from '@leadrelay/shared';

/** One lead of the webhook, ids as text (the parser reads big numbers as text). */
export interface TiktokLeadEntry {
  id: string;
  advertiserId: string;
  advertiserName?: string;
  pageId?: string;
  pageName?: string;
  campaignId?: string;
  campaignName?: string;
  adgroupId?: string;
  adgroupName?: string;
  adId?: string;
  adName?: string;
  /** Unix seconds. */
  createTime?: number;
  leadSource?: string;
  /** The answers: `field` is the form's field name (name, phone_number, email or a custom question). */
  changes: { field: string; value: string }[];
}

const MAX_KEY = 64;

/**
 * A field name as a payload key: the default mapping and dotted paths take [A-Za-z0-9_-] only, so
 * anything else becomes "_" (a name of nothing but such characters becomes question_<n>).
 */
export function payloadKey(field: string, index: number): string {
  const safe = field
    .trim()
    .replace(/[^A-Za-z0-9_-]/g, '_')
    .slice(0, MAX_KEY);
  return /[A-Za-z0-9]/.test(safe) ? safe : `question_${index + 1}`;
}

/**
 * The flat payload of a TikTok lead: every answer by its field name (name, phone_number and email
 * are the default mapping's own keys; custom questions become custom fields), full_name made of
 * first_name and last_name when the form asks for those, utm_source "tiktok", utm_campaign the
 * campaign's name, and TikTok's ids as tiktok_*.
 */
export function tiktokLeadPayload(entry: TiktokLeadEntry): Record<string, string> {
  const payload: Record<string, string> = {};
  entry.changes.forEach((change, index) => {
    const value = change.value.trim();
    if (!value) return;
    // The form author names the questions: `__proto__` or `constructor` is a field like any other.
    const key = payloadKey(change.field, index);
    if (Object.hasOwn(payload, key)) return;
    setOwn(payload, key, value);
  });
  if (!payload.name && !payload.full_name) {
    const full = [payload.first_name, payload.last_name].filter(Boolean).join(' ');
    if (full) payload.full_name = full;
  }
  payload.utm_source = 'tiktok';
  if (entry.campaignName) payload.utm_campaign = entry.campaignName;
  const meta: [string, string | undefined][] = [
    ['tiktok_lead_id', entry.id],
    ['tiktok_form_id', entry.pageId],
    ['tiktok_form_name', entry.pageName],
    ['tiktok_advertiser_id', entry.advertiserId],
    ['tiktok_advertiser_name', entry.advertiserName],
    ['tiktok_campaign_id', entry.campaignId],
    ['tiktok_campaign_name', entry.campaignName],
    ['tiktok_adgroup_id', entry.adgroupId],
    ['tiktok_adgroup_name', entry.adgroupName],
    ['tiktok_ad_id', entry.adId],
    ['tiktok_ad_name', entry.adName],
    ['tiktok_lead_source', entry.leadSource],
    ['created_time', entry.createTime ? new Date(entry.createTime * 1000).toISOString() : undefined],
  ];
  for (const [key, value] of meta) {
    // TikTok's own fields win over an answer that happens to share the name, and an answer never
    // stands in for one TikTok did not send (tiktok_form_id routes the lead to its form's integrations).
    if (value) setOwn(payload, key, value);
    else delete payload[key];
  }
  return payload;
}
