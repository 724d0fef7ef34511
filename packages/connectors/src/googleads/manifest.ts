// Google Ads lead forms' screen on the generic source integration page, drawn by the web
// (kit/manifest.ts): the webhook address and the key to paste into the lead form, each with a copy
// button, how to paste them, a new key on demand, and the last leads with their leads' status. What
// GET /api/integrations/:id/source answers (source.ts `googleAdsState`) is read below.
import { defineManifest, type SourceScreen, type WordKey } from '../kit/manifest';
import { logo } from './logo';
import { type GoogleAdsState, ZGoogleAdsState } from './schema';
import type words from './words/uk.json';

type Word = WordKey<typeof words>;

/** A typical lead as the mapping's sample: what Google's "Send test data" brings, as the server flattens it. */
export const SAMPLE_LEAD: Readonly<Record<string, string>> = {
  name: 'Олена Коваль',
  phone: '+380501234567',
  email: 'olena@example.com',
  city: 'Київ',
  question_1: 'Коли вам зручно поговорити?',
  answer_1: 'Після 18:00',
  comment: 'Коли вам зручно поговорити?: Після 18:00',
  utm_source: 'google',
  utm_medium: 'lead_form',
  utm_campaign: '21467123456',
  lead_id: 'TeSter-123ABCabc',
  form_id: '123456789012',
  campaign_id: '21467123456',
  adgroup_id: '158421234567',
  creative_id: '690123456789',
  gcl_id: 'Cj0KCQjw_example',
  api_version: '1.0',
  is_test: 'false',
};

function read(answer: unknown): SourceScreen<Word> {
  const state: GoogleAdsState = ZGoogleAdsState.parse(answer);
  const connected = !!state.key && !!state.webhookUrl;
  return {
    connection: {
      connected,
      details: connected
        ? [
            { label: 'connection.address', value: [{ text: state.webhookUrl ?? '', copy: true }] },
            { label: 'connection.key', value: [{ text: state.key ?? '', copy: true }] },
            { label: 'connection.howTo', value: [{ word: 'connection.steps' }] },
          ]
        : [],
    },
    items: state.leads.map((l) => ({
      id: l.leadId,
      via: 'webhook',
      timesSeen: l.timesSeen,
      status: l.status,
      at: l.receivedAt,
      summary: { name: l.name, phone: l.phone, email: l.email },
    })),
  };
}

export const manifest = defineManifest<typeof words>({
  slug: 'googleads',
  kind: 'source',
  name: 'Google Ads',
  logo,
  source: {
    read,
    cards: [
      {
        widget: 'connect',
        title: 'connection.title',
        intro: 'connection.intro',
        fields: [],
        words: {
          submit: 'form.submit',
          done: 'form.done',
          change: 'connection.change',
          cancel: 'connection.cancel',
        },
      },
      {
        widget: 'seen',
        title: 'leads.title',
        empty: 'leads.empty',
        item: { title: 'leads.lead', name: 'leads.number' },
        who: { title: 'leads.person', fields: ['name', 'phone', 'email'] },
        lead: {
          title: 'leads.status',
          webhook: 'leads.viaWebhook',
          poll: 'leads.viaWebhook',
          times: 'leads.timesSeen',
          repeats: 'leads.repeatsHint',
          noHook: 'leads.noHook',
        },
      },
    ],
    mapping: { sample: SAMPLE_LEAD, note: 'mapping.sample' },
    empty: { title: 'list.empty.title', text: 'list.empty.text', action: 'list.empty.action' },
  },
});
