// The mapping preview of a facebook integration: a lead of the integration's own form, shaped like
// the payload the server builds from a Meta lead (packages/connectors/src/facebook/mapping.ts,
// graphLeadPayload): every answer by its question key, full_name, utm_source, leadgen_id and fb_*.
import type { FbLeadForm } from '@leadrelay/shared';
import type { FieldData } from '../api';

type Question = FbLeadForm['questions'][number];

const EXAMPLES: Record<string, string> = {
  full_name: 'Олена Коваленко',
  first_name: 'Олена',
  last_name: 'Коваленко',
  email: 'olena.kovalenko@ukr.net',
  phone_number: '+380671234567',
  city: 'Львів',
  street_address: 'вул. Городоцька, 15',
  zip: '79000',
  company_name: 'Кав’ярня «Ранок»',
  job_title: 'Менеджер',
  date_of_birth: '1990-04-12',
};

/** Same rule as the server: keys of [A-Za-z0-9_-] only; a key of nothing else becomes question_<n>. */
export function payloadKey(key: string, index: number): string {
  const safe = key
    .trim()
    .replace(/[^A-Za-z0-9_-]/g, '_')
    .slice(0, 64);
  return /[A-Za-z0-9]/.test(safe) ? safe : `question_${index + 1}`;
}

const exampleOf = (q: Question): string =>
  EXAMPLES[q.key] ?? (q.type.toUpperCase() === 'EMAIL' ? 'olena.kovalenko@ukr.net' : 'Так');

/** Answers to every question of the form, as the emulator's submit-lead takes them. */
export function sampleFieldData(form: Pick<FbLeadForm, 'questions'>): FieldData[] {
  return form.questions.map((q) => ({ name: q.key, values: [exampleOf(q)] }));
}

/** The payload a lead of this form becomes on the server (what the mapping reads). */
export function samplePayload(form: Pick<FbLeadForm, 'id' | 'questions'>): Record<string, string> {
  const payload: Record<string, string> = {};
  sampleFieldData(form).forEach((f, i) => {
    payload[payloadKey(f.name, i)] = f.values.join(', ');
  });
  if (!payload.full_name && (payload.first_name || payload.last_name)) {
    payload.full_name = [payload.first_name, payload.last_name].filter(Boolean).join(' ');
  }
  payload.utm_source ??= 'facebook';
  payload.utm_campaign ??= 'Spring promo';
  return {
    ...payload,
    leadgen_id: '8000000000001',
    created_time: '2026-03-02T10:00:00+0000',
    fb_form_id: form.id,
    fb_ad_id: '23850000000000001',
    fb_ad_name: 'Spring promo — video',
    fb_adset_id: '23850000000000002',
    fb_adset_name: 'Kyiv 25–45',
    fb_campaign_id: '23850000000000003',
    fb_campaign_name: 'Spring promo',
    fb_platform: 'fb',
    fb_is_organic: 'false',
  };
}

/** Before the form's questions are known: the standard ones. */
export const STANDARD_FORM: Pick<FbLeadForm, 'id' | 'questions'> = {
  id: 'form',
  questions: [
    { key: 'full_name', label: 'Full name', type: 'FULL_NAME' },
    { key: 'email', label: 'Email', type: 'EMAIL' },
    { key: 'phone_number', label: 'Phone number', type: 'PHONE' },
  ],
};
