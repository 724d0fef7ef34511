// A Google Ads lead form webhook body → one item (docs/connectors/googleads.md, "Confirmed"): the
// body is one WebhookLead — lead_id, user_column_data [{column_id, column_name?, string_value}],
// form_id, campaign_id, adgroup_id, creative_id, asset_group_id, gcl_id, api_version, google_key,
// is_test, lead_stage, lead_submit_time. Column ids map to the lead's fields by default; a custom
// question keeps its text as data (question_N / answer_N and a line of the comment), never as a
// key; the ids go to the lead's custom fields. Never throws: junk gives no item.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { SourceItem } from '../kit/source';

/** Columns a body may carry that are read (a form has a few dozen at most; this is a guard). */
export const MAX_COLUMNS = 100;
/** Longest value kept of one answer, and of a lead id. */
export const MAX_VALUE = 5_000;
const MAX_ID = 200;

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const own = (o: Record<string, unknown>, key: string): unknown => (Object.hasOwn(o, key) ? o[key] : undefined);

/** Google's column ids (LeadFormFieldUserInputType) and the payload field each becomes. */
const COLUMNS: ReadonlyMap<string, string> = new Map([
  ['FULL_NAME', 'full_name'],
  ['FIRST_NAME', 'first_name'],
  ['LAST_NAME', 'last_name'],
  ['EMAIL', 'email_personal'],
  ['WORK_EMAIL', 'work_email'],
  ['PHONE_NUMBER', 'phone_personal'],
  ['WORK_PHONE', 'work_phone'],
  ['POSTAL_CODE', 'postal_code'],
  ['STREET_ADDRESS', 'street_address'],
  ['CITY', 'city'],
  ['REGION', 'region'],
  ['COUNTRY', 'country'],
  ['COMPANY_NAME', 'company'],
  ['JOB_TITLE', 'job_title'],
]);

/** The ids Google sends beside the columns, kept on the lead as they came (int64 as text). */
const IDS = ['form_id', 'campaign_id', 'adgroup_id', 'creative_id', 'asset_group_id'] as const;
const TEXTS = ['gcl_id', 'api_version', 'lead_stage', 'lead_submit_time'] as const;

const clip = (s: string, n: number) => (s.length > n ? s.slice(0, n) : s);

/** A string as sent; a number Google might send for an int64 as its digits; anything else nothing. */
function textOf(v: unknown, max = MAX_VALUE): string | undefined {
  if (typeof v === 'string') {
    const t = v.trim();
    return t ? clip(t, max) : undefined;
  }
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}

/** The lead's id: Google's `lead_id` (a string; a number taken as its digits). */
export function leadIdOf(body: unknown): string | undefined {
  if (!isRecord(body)) return undefined;
  const id = textOf(own(body, 'lead_id'), MAX_ID + 1);
  return id && id.length <= MAX_ID ? id : undefined;
}

export const isTestLead = (body: unknown) =>
  isRecord(body) && (own(body, 'is_test') === true || own(body, 'is_test') === 'true');

interface Column {
  id?: string;
  question?: string;
  value: string;
}

function columnsOf(body: Record<string, unknown>): Column[] {
  const raw = own(body, 'user_column_data');
  if (!Array.isArray(raw)) return [];
  return raw.slice(0, MAX_COLUMNS).flatMap((c) => {
    if (!isRecord(c)) return [];
    const value = textOf(own(c, 'string_value'));
    if (value === undefined) return [];
    const id = textOf(own(c, 'column_id'), 100);
    const question = textOf(own(c, 'column_name'), 500);
    return [{ ...(id ? { id } : {}), ...(question ? { question } : {}), value }];
  });
}

/** The flat payload ingest maps into the lead: known columns by their field, questions as data, the ids. */
export function leadPayload(body: Record<string, unknown>): Record<string, string> {
  const fields = new Map<string, string>();
  const questions: { question: string; value: string }[] = [];
  for (const column of columnsOf(body)) {
    const field = column.id ? COLUMNS.get(column.id) : undefined;
    if (field && !fields.has(field)) fields.set(field, column.value);
    else if (!field) questions.push({ question: column.question ?? column.id ?? '', value: column.value });
  }
  const payload = new Map<string, string>();
  const put = (key: string, value: string | undefined) => {
    if (value) payload.set(key, value);
  };
  const given = [fields.get('first_name'), fields.get('last_name')].filter(Boolean).join(' ');
  put('name', fields.get('full_name') ?? (given || undefined));
  put('phone', fields.get('phone_personal') ?? fields.get('work_phone'));
  put('email', fields.get('email_personal') ?? fields.get('work_email'));
  for (const [field, value] of fields) {
    if (field !== 'full_name' && field !== 'phone_personal' && field !== 'email_personal') put(field, value);
  }
  for (const [i, q] of questions.entries()) {
    put(`question_${i + 1}`, q.question);
    put(`answer_${i + 1}`, q.value);
  }
  put('comment', questions.map((q) => (q.question ? `${q.question}: ${q.value}` : q.value)).join('\n') || undefined);
  // Where the lead came from, as a destination's UTM fields read it.
  put('utm_source', 'google');
  put('utm_medium', 'lead_form');
  put('utm_campaign', textOf(own(body, 'campaign_id'), 40));
  put('lead_id', leadIdOf(body));
  for (const key of IDS) put(key, textOf(own(body, key), 40));
  for (const key of TEXTS) put(key, textOf(own(body, key), 500));
  put('is_test', isTestLead(body) ? 'true' : 'false');
  return Object.fromEntries(payload);
}

/** The body's lead as an item; none for a body that is no Google lead (no lead_id). */
export function leadItems(body: unknown): SourceItem[] {
  const id = leadIdOf(body);
  if (!id || !isRecord(body)) return [];
  return [{ id, payload: leadPayload(body), ...(isTestLead(body) ? { test: true } : {}) }];
}

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/** The body's `google_key` is the integration's key (compared in constant time); none stored: never. */
export function keyMatches(body: unknown, auth: Record<string, unknown>): boolean {
  const stored = own(auth, 'key');
  if (typeof stored !== 'string' || stored.length < 16 || !isRecord(body)) return false;
  const sent = own(body, 'google_key');
  if (typeof sent !== 'string' || sent.length === 0 || sent.length > 1000) return false;
  return timingSafeEqual(digest(sent), digest(stored));
}
