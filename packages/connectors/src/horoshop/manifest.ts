// Horoshop's screen on the generic source integration page, drawn by the web (kit/manifest.ts): the
// shop and its API admin (the form to connect or change it), the order webhook at the shop and the
// 5-minute check under it, the last orders with their leads, and a typical order as the mapping's
// sample. What GET /api/integrations/:id/source answers (source.ts `horoshopState`) is read below.
import { type ConnectionDetail, defineManifest, type SourceScreen, type WordKey } from '../kit/manifest';
import { logo } from './logo';
import {
  HOROSHOP_SAMPLE_ORDER,
  type HoroshopState,
  horoshopOrderPayload,
  ZHoroshopAuthBody,
  ZHoroshopState,
} from './schema';
import type words from './words/uk.json';

type Word = WordKey<typeof words>;

const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

/** The shop, how LeadRelay signs in to it (never the password or the token), its webhook, poll and orders. */
function read(answer: unknown): SourceScreen<Word> {
  const state: HoroshopState = ZHoroshopState.parse(answer);
  const connected = state.authMode !== 'none' && !!state.shopUrl;
  const details: ConnectionDetail<Word>[] = state.shopUrl
    ? [
        { label: 'connection.shop', value: [{ text: hostOf(state.shopUrl), href: state.shopUrl }] },
        {
          label: 'connection.access',
          value: [
            state.authMode === 'password'
              ? { word: 'connection.byPassword', values: { login: state.login ?? '' } }
              : { word: 'connection.byToken', tag: 'gold' },
          ],
        },
      ]
    : [];
  return {
    connection: { connected, details, initial: { domain: state.shopUrl ? hostOf(state.shopUrl) : '' } },
    subscription: state.webhook,
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

const byPassword = { field: 'mode', is: 'password' } as const;

export const manifest = defineManifest<typeof words>({
  slug: 'horoshop',
  kind: 'source',
  name: 'Horoshop',
  logo,
  source: {
    read,
    cards: [
      {
        widget: 'connect',
        title: 'connection.title',
        mark: { icon: 'shop', color: '#0b8a5f' },
        intro: 'connection.intro',
        fields: [
          {
            kind: 'text',
            name: 'domain',
            label: 'form.domain',
            placeholder: 'form.domainPlaceholder',
            inputMode: 'url',
            required: true,
            schema: ZHoroshopAuthBody.shape.domain,
          },
          {
            kind: 'segmented',
            name: 'mode',
            label: 'form.mode',
            local: true,
            default: 'password',
            options: [
              { value: 'password', label: 'form.byPassword' },
              { value: 'token', label: 'form.byToken' },
            ],
          },
          {
            row: [
              { kind: 'text', name: 'login', label: 'form.login', required: true, visibleWhen: byPassword },
              {
                kind: 'secret',
                name: 'password',
                label: 'form.password',
                required: true,
                exact: true,
                visibleWhen: byPassword,
              },
            ],
          },
          {
            kind: 'secret',
            name: 'token',
            label: 'form.token',
            hint: 'form.tokenHint',
            required: true,
            visibleWhen: { field: 'mode', is: 'token' },
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
            section: 'subscription',
            words: {
              title: 'webhook.title',
              none: 'webhook.none',
              active: 'webhook.active',
              removed: 'webhook.removed',
              register: 'webhook.register',
              registerAgain: 'webhook.registerAgain',
              registered: 'webhook.registered',
              remove: 'webhook.remove',
              removeConfirm: 'webhook.removeConfirm',
              removedOk: 'webhook.removedOk',
              note: 'webhook.delay',
            },
          },
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
    mapping: { sample: horoshopOrderPayload(HOROSHOP_SAMPLE_ORDER), note: 'mapping.sample' },
    empty: { title: 'list.empty.title', text: 'list.empty.text', action: 'list.empty.action' },
  },
});
