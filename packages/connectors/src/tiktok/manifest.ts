// What the web knows of TikTok lead forms (kit/manifest.ts, kit/manifest-accounts.ts): TikTok for
// Business logins belong to the account; each integration takes the leads of one Instant Form of one
// of their ad accounts. The web draws the connections page (/admin/integrations/tiktok), the
// integrations list (/admin/integrations/tiktok-forms) and the integration's source card and mapping
// from the calls and readers below (the paths are connection.ts's).
import { accountsScreen, defineManifest, listOf } from '../kit/manifest';
import { tiktokLeadPayload } from './lead';
import { logo } from './logo';
import { ZTtAdvertiserState, ZTtConnection, ZTtForm, ZTtItem } from './schema';
import type words from './words/uk.json';

type Question = { key: string; type: string };

/** Looked up as data: a field's name is the form author's (`constructor` is a field like any other). */
const EXAMPLES = new Map<string, string>(
  Object.entries({
    name: 'Олена Коваленко',
    first_name: 'Олена',
    last_name: 'Коваленко',
    email: 'olena.kovalenko@ukr.net',
    phone_number: '+380671234567',
    city: 'Львів',
    gender: 'Жінка',
    address: 'вул. Городоцька, 15',
  }),
);

const exampleOf = (q: Question): string => EXAMPLES.get(q.key) ?? 'Так';

/** Answers to every field of the form, as the webhook's `changes` carry them. */
export function sampleChanges(form: { questions: readonly Question[] }) {
  return form.questions.map((q) => ({ field: q.key, value: exampleOf(q) }));
}

/** The payload a lead of this form becomes on the server (what the mapping reads): the server's own builder. */
export function samplePayload(form: { id: string; questions: readonly Question[] }): Record<string, string> {
  return tiktokLeadPayload({
    id: '7200000000000000001',
    advertiserId: '7012345678901234567',
    advertiserName: 'Kyiv Dental Studio Ads',
    pageId: form.id,
    pageName: 'Free consultation',
    campaignId: '1780000000000000001',
    campaignName: 'Spring promo',
    adgroupId: '1780000000000000002',
    adgroupName: 'Kyiv 25-45',
    adId: '1780000000000000003',
    adName: 'Spring promo video',
    createTime: 1772445600,
    leadSource: 'INSTANT_FORM',
    changes: sampleChanges(form),
  });
}

const connection = '/api/tiktok/connection/:connection';
const advertiser = `${connection}/advertiser/:asset`;

export const manifest = defineManifest<typeof words>({
  slug: 'tiktok',
  kind: 'source',
  name: 'TikTok Lead Forms',
  logo,
  accounts: accountsScreen<typeof words>({
    listPath: 'tiktok-forms',
    settings: { connection: 'ttConnectionId', asset: 'ttAdvertiserId', form: 'ttFormId' },
    calls: {
      start: { method: 'POST', path: '/api/tiktok/start', body: { locale: 'locale' }, url: 'authUrl' },
      connections: { method: 'GET', path: '/api/tiktok/connections' },
      picture: { method: 'GET', path: '/api/tiktok/picture', idQuery: 'id', keepMs: 7_200_000 },
      refresh: { method: 'GET', path: `${connection}/advertisers`, query: { refresh: '1' } },
      asset: { method: 'GET', path: advertiser },
      subscribe: { method: 'POST', path: `${advertiser}/subscribe` },
      unsubscribe: { method: 'DELETE', path: `${advertiser}/subscribe` },
      remove: { method: 'DELETE', path: connection },
      forms: { method: 'GET', path: `${advertiser}/forms` },
      items: { method: 'GET', path: '/api/tiktok/advertisers' },
      migrate: { method: 'POST', path: '/api/tiktok/integration/:id/migrate', body: { connection: 'ttConnectionId' } },
      // TikTok's own test lead on the form (page/lead/mock/create/); its webhook brings it back like a real one.
      testLead: { method: 'POST', path: '/api/tiktok/integration/:id/test-lead', answersField: 'answers' },
    },
    read: {
      connections: (answer) =>
        listOf(ZTtConnection, answer).map((c) => ({
          id: c._id,
          accountId: c.ttUserId,
          name: c.name,
          email: c.email,
          broken: c.status === 'broken',
          reason: c.statusReason,
          expiresAt: c.expiresAt,
          assets: c.advertisers.map((a) => ({ id: a.id, name: a.name, category: null, subscribed: a.isSubscribed })),
        })),
      asset: (answer) => {
        const state = ZTtAdvertiserState.parse(answer);
        return { subscribed: state.isSubscribed, forms: state.forms };
      },
      forms: (answer) => listOf(ZTtForm, answer),
      items: (answer) =>
        listOf(ZTtItem, answer).map((a) => ({
          connectionId: a.connectionId,
          connectionName: a.connectionName,
          assetId: a.advertiserId,
          assetName: a.advertiserName,
        })),
    },
    sample: {
      standard: [
        { key: 'name', label: 'name', type: 'NAME' },
        { key: 'email', label: 'email', type: 'EMAIL' },
        { key: 'phone_number', label: 'phone_number', type: 'PHONE_NUMBER' },
      ],
      answers: sampleChanges,
      payload: samplePayload,
    },
    color: '#000000',
    // TikTok's long-term token does not expire by itself (expiresAt stays null).
    warnDays: 7,
  }),
});
