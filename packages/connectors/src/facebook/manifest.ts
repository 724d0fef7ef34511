// What the web knows of Facebook Lead Ads (kit/manifest.ts, kit/manifest-accounts.ts): profiles
// signed in with Facebook Login belong to the account; each integration takes the leads of one lead
// form of one of their pages. The web draws the connections page (/admin/integrations/facebook), the
// integrations list (/admin/integrations/fb) and the integration's source card and mapping from the
// calls and readers below; the paths are the spec's (7 "Social-network lead forms") and its legacy ones.

import { accountsScreen, defineManifest, listOf } from '../kit/manifest';
import { graphLeadPayload } from './lead';
import { logo } from './logo';
import { type FbLeadForm, ZFbAccountState, ZFbConnection, ZFbLeadForm, ZFbPageItem } from './schema';
import type words from './words/uk.json';

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

const exampleOf = (q: Pick<Question, 'key' | 'type'>): string =>
  EXAMPLES.get(q.key) ?? (q.type.toUpperCase() === 'EMAIL' ? 'olena.kovalenko@ukr.net' : 'Так');

/** Answers to every question of the form, as Graph's field_data carries them (and the emulator's submit-lead takes them). */
export function sampleFieldData(form: { questions: readonly Pick<Question, 'key' | 'type'>[] }) {
  return form.questions.map((q) => ({ name: q.key, values: [exampleOf(q)] }));
}

/** The payload a lead of this form becomes on the server (what the mapping reads): the server's own builder. */
export function samplePayload(form: {
  id: string;
  questions: readonly Pick<Question, 'key' | 'type'>[];
}): Record<string, string> {
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

const connection = '/api/facebook/connection/:connection';
const page = `${connection}/account/:asset`;
const legacy = '/api/legacy/api/facebook';

export const manifest = defineManifest<typeof words>({
  slug: 'facebook',
  kind: 'source',
  name: 'Facebook Lead Ads',
  logo,
  accounts: accountsScreen<typeof words>({
    listPath: 'fb',
    settings: { connection: 'fbConnectionId', asset: 'fbPageId', form: 'fbFormId' },
    calls: {
      // POST {auth host}/facebook/start: the auth host is this server.
      start: { method: 'POST', path: '/facebook/start', body: { locale: 'locale' }, url: 'authUrl' },
      connections: { method: 'GET', path: '/api/facebook/connections' },
      // Spec 9: a profile's or page's picture is kept for 2 hours.
      picture: { method: 'GET', path: '/api/facebook/accountPicture', idQuery: 'accountId', keepMs: 7_200_000 },
      refresh: { method: 'GET', path: `${connection}/accounts`, query: { refresh: '1' } },
      asset: { method: 'GET', path: page },
      subscribe: { method: 'POST', path: `${page}/subscribe` },
      unsubscribe: { method: 'DELETE', path: `${page}/unsubscribe` },
      remove: { method: 'DELETE', path: `${legacy}/accounts/:connection` },
      forms: { method: 'POST', path: `${legacy}/leadform`, body: { connection: 'connectionId', asset: 'pageId' } },
      items: { method: 'GET', path: '/api/legacy/api/admin/integration/fbPageItems' },
      migrate: { method: 'POST', path: '/api/integrations/migrate/fb/:id', body: { connection: 'fbConnectionId' } },
      // Graph's test_leads on the form; its webhook brings the lead back like a real one.
      testLead: { method: 'POST', path: '/api/facebook/integration/:id/test-lead', answersField: 'fieldData' },
    },
    read: {
      connections: (answer) =>
        listOf(ZFbConnection, answer).map((c) => ({
          id: c._id,
          accountId: c.fbUserId,
          name: c.name,
          email: c.email,
          broken: c.status === 'broken',
          reason: c.statusReason,
          expiresAt: c.expiresAt,
          assets: c.pages.map((p) => ({ id: p.id, name: p.name, category: p.category, subscribed: p.isSubscribed })),
        })),
      asset: (answer) => {
        const state = ZFbAccountState.parse(answer);
        return { subscribed: state.isSubscribed, forms: state.leadForms };
      },
      forms: (answer) => listOf(ZFbLeadForm, answer),
      items: (answer) =>
        listOf(ZFbPageItem, answer).map((p) => ({
          connectionId: p.connectionId,
          connectionName: p.connectionName,
          assetId: p.pageId,
          assetName: p.pageName,
        })),
    },
    sample: {
      standard: [
        { key: 'full_name', label: 'Full name', type: 'FULL_NAME' },
        { key: 'email', label: 'Email', type: 'EMAIL' },
        { key: 'phone_number', label: 'Phone number', type: 'PHONE' },
      ],
      answers: sampleFieldData,
      payload: samplePayload,
    },
    color: '#1877f2',
    // Facebook's long-lived tokens last about 60 days: a week before the end the user is asked to reconnect.
    warnDays: 7,
  }),
  // CRM stages back to Meta (issue 33): the source page's conversions card.
  conversions: { to: 'Meta', reconnect: ['FACEBOOK_TOKEN', 'FACEBOOK_CAPI_PERMISSION'] },
});
