// The mapping preview of a facebook integration: a lead of the integration's own form, made into the
// payload by the same graphLeadPayload the server uses (@leadrelay/shared): every answer by its
// question key, full_name, utm_source, leadgen_id and fb_*.
import { type FbLeadForm, graphLeadPayload } from '@leadrelay/shared';
import type { FieldData } from '../api';

type Question = FbLeadForm['questions'][number];

/** Looked up as data: a question's key is the form author's (`constructor` is a question like any other). */
const EXAMPLES = new Map<string, string>(
  Object.entries({
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
  }),
);

const exampleOf = (q: Question): string =>
  EXAMPLES.get(q.key) ?? (q.type.toUpperCase() === 'EMAIL' ? 'olena.kovalenko@ukr.net' : 'Так');

/** Answers to every question of the form, as the emulator's submit-lead takes them. */
export function sampleFieldData(form: Pick<FbLeadForm, 'questions'>): FieldData[] {
  return form.questions.map((q) => ({ name: q.key, values: [exampleOf(q)] }));
}

/** The payload a lead of this form becomes on the server (what the mapping reads): the server's own builder. */
export function samplePayload(form: Pick<FbLeadForm, 'id' | 'questions'>): Record<string, string> {
  return graphLeadPayload({
    id: '8000000000001',
    created_time: '2026-03-02T10:00:00+0000',
    form_id: form.id,
    ad_id: '23850000000000001',
    ad_name: 'Spring promo — video',
    adset_id: '23850000000000002',
    adset_name: 'Kyiv 25–45',
    campaign_id: '23850000000000003',
    campaign_name: 'Spring promo',
    platform: 'fb',
    is_organic: false,
    field_data: sampleFieldData(form),
  });
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
