// Prom.ua's screen on the generic source integration page, drawn by the web (kit/manifest.ts): the
// token (the form to connect or change it), the check every 5 minutes under it, the last orders with
// their leads, and a typical order as the mapping's sample. What GET /api/integrations/:id/source
// answers (source.ts `promuaState`) is read below.
import { defineManifest, type SourceScreen, type WordKey } from '../kit/manifest';
import { logo } from './logo';
import { PROMUA_SAMPLE_ORDER, promOrderPayload } from './mapping';
import { type PromuaState, ZPromuaConnectBody, ZPromuaState } from './schema';
import type words from './words/uk.json';

type Word = WordKey<typeof words>;

/** The token (its last four characters only), the poll and the orders. */
function read(answer: unknown): SourceScreen<Word> {
  const state: PromuaState = ZPromuaState.parse(answer);
  return {
    connection: {
      connected: state.connected,
      details: state.connected
        ? [
            {
              label: 'connection.access',
              value: [
                state.tokenEnd
                  ? { word: 'connection.tokenEnding', values: { end: state.tokenEnd } }
                  : { word: 'connection.token' },
              ],
            },
          ]
        : [],
    },
    poll: { lastRunAt: state.poll.lastPollAt, lastError: state.poll.lastError },
    items: state.orders.map((o) => ({
      id: o.orderId,
      via: o.via,
      timesSeen: o.timesSeen,
      status: o.status,
      at: o.receivedAt,
      summary: { name: o.name, phone: o.phone, total: o.total, currency: o.currency },
    })),
  };
}

export const manifest = defineManifest<typeof words>({
  slug: 'promua',
  kind: 'source',
  name: 'Prom.ua',
  logo,
  source: {
    read,
    cards: [
      {
        widget: 'connect',
        title: 'connection.title',
        mark: { icon: 'shop', color: '#6b2fd6' },
        intro: 'connection.intro',
        fields: [
          {
            kind: 'secret',
            name: 'token',
            label: 'form.token',
            hint: 'form.tokenHint',
            required: true,
            autoComplete: 'off',
            schema: ZPromuaConnectBody.shape.token,
          },
        ],
        words: {
          submit: 'form.submit',
          done: 'form.connected',
          change: 'connection.change',
          cancel: 'connection.cancel',
        },
        sections: [
          {
            section: 'poll',
            words: {
              title: 'poll.title',
              every: 'poll.every',
              inactive: 'poll.inactive',
              last: 'poll.last',
              never: 'poll.never',
              now: 'poll.now',
              checked: 'poll.checked',
              failed: 'poll.failed',
              errors: 'poll.errors',
            },
          },
        ],
      },
      {
        widget: 'seen',
        title: 'orders.title',
        empty: 'orders.empty',
        item: { title: 'orders.order', name: 'orders.number' },
        who: { title: 'orders.customer', fields: ['name', 'phone'] },
        amount: { title: 'orders.total', field: 'total', currency: 'currency' },
        lead: {
          title: 'orders.lead',
          webhook: 'orders.viaWebhook',
          poll: 'orders.viaPoll',
          times: 'orders.timesSeen',
          repeats: 'orders.repeatsHint',
          noHook: 'orders.noHook',
        },
      },
    ],
    mapping: { sample: promOrderPayload(PROMUA_SAMPLE_ORDER), note: 'mapping.sample' },
    empty: { title: 'list.empty.title', text: 'list.empty.text', action: 'list.empty.action' },
  },
});
