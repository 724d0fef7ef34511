// Bitrix24's screens, drawn by the web (kit/manifest.ts): connected with the portal's inbound
// webhook address; where leads go (a lead, or a deal in a pipeline and stage, title, responsible
// user); the portal's users. The paths beside the generic ones are Bitrix24's own routes.

import { ZCrmWatch } from '@leadrelay/shared';
import { z } from 'zod';
import { type ConnectionView, DETAIL_WORDS, defineManifest, GENERAL_CARD, LIST_WORDS, listOf } from '../kit/manifest';
import { logo } from './logo';
import {
  BITRIX24_TARGETS,
  parseInboundWebhook,
  ZBitrix24OutgoingToken,
  ZBitrix24Pipeline,
  ZBitrix24User,
} from './schema';
import type words from './words/uk.json';

type Words = typeof words;
type Key = `watch.${keyof Words['watch'] & string}`;

/**
 * The stage watch as its card shows it (GET /api/integrations/:id/crm-watch): our address to paste
 * into the portal's outgoing webhook, shown before the token is (and after); connected once the
 * token Bitrix24 showed is pasted back.
 */
function readWatch(answer: unknown): ConnectionView<Key> {
  const watch = ZCrmWatch.parse(answer);
  const tokenSet = watch.tokenSet === true;
  if (!watch.address) {
    return {
      connected: false,
      detailsFirst: true,
      details: [{ label: 'watch.state', value: [{ word: 'watch.notConnected' }] }],
    };
  }
  return {
    connected: tokenSet,
    detailsFirst: true,
    details: [
      { label: 'watch.address', value: [{ text: watch.address, copy: true }] },
      {
        label: 'watch.state',
        value: [{ word: tokenSet ? 'watch.watching' : 'watch.pending', tag: tokenSet ? 'green' : 'gold' }],
      },
    ],
  };
}

// The shape only: the server checks the host against the addresses it allows.
const ZWebhookUrl = z.string().refine((v) => parseInboundWebhook(v) !== undefined, {
  error: 'BITRIX24_WEBHOOK_URL_INVALID',
});

export const manifest = defineManifest<typeof words>({
  slug: 'bitrix24',
  kind: 'destination',
  name: 'Bitrix24',
  logo,
  page: {
    title: 'page.title',
    list: LIST_WORDS,
    connect: {
      methods: [
        {
          key: 'credentials',
          kind: 'credentials',
          call: { method: 'POST', path: '/api/bitrix24/connect', with: { id: 'integrationId' } },
          sayFailed: true,
          items: [
            {
              kind: 'secret',
              name: 'webhookUrl',
              label: 'connect.webhookUrl',
              hint: 'connect.webhookHint',
              example: 'https://your-company.bitrix24.ua/rest/1/…/',
              required: true,
              schema: ZWebhookUrl,
            },
          ],
        },
      ],
    },
    detail: {
      ...DETAIL_WORDS,
      tabs: [
        {
          key: 'connection',
          label: 'tabs.connection',
          cards: [
            GENERAL_CARD,
            {
              widget: 'connection',
              span: { xs: 24, lg: 14 },
              sections: [
                {
                  show: 'account',
                  call: { method: 'GET', path: '/api/bitrix24/account/:id' },
                  when: 'connected',
                  rows: [
                    { field: 'portal', label: 'account.portal' },
                    { field: 'webhook', label: 'account.webhook' },
                  ],
                },
              ],
            },
            {
              // Speed to lead: the portal's outgoing webhook, made by hand (stage-watch.ts).
              widget: 'connect',
              span: { xs: 24 },
              title: 'watch.title',
              intro: 'watch.intro',
              state: { path: '/api/integrations/:id/crm-watch', read: readWatch },
              fields: [
                {
                  kind: 'secret',
                  name: 'token',
                  label: 'watch.token',
                  hint: 'watch.tokenHint',
                  required: true,
                  autoComplete: 'off',
                  example: '51856fefc120afa4b628cc82d3935cce',
                  schema: ZBitrix24OutgoingToken,
                },
              ],
              submit: { path: '/api/integrations/:id/crm-watch/token', answersState: true },
              words: { submit: 'watch.save', done: 'watch.saved', change: 'watch.change', cancel: 'watch.cancel' },
              bordered: true,
            },
          ],
        },
        {
          key: 'pipeline',
          label: 'tabs.pipeline',
          cards: [
            {
              widget: 'form',
              title: 'settings.title',
              save: 'settings.save',
              saved: 'settings.saved',
              checkFailed: 'settings.checkFailed',
              omitEmpty: true,
              items: [
                {
                  kind: 'radio',
                  name: 'target',
                  spaced: true,
                  label: 'settings.target',
                  options: BITRIX24_TARGETS.map((v) => ({ value: v, label: `targets.${v}` as const })),
                  default: 'lead',
                  clears: ['categoryId', 'stageId'],
                },
                {
                  kind: 'pipeline-stage',
                  name: 'categoryId',
                  label: 'settings.pipeline',
                  list: 'dealPipelines',
                  visibleWhen: { field: 'target', is: 'deal' },
                  // A new deal goes into a working stage: the closing ones (won, lost) are not offered.
                  read: (answer) =>
                    listOf(ZBitrix24Pipeline, answer).map((p) => ({
                      id: p.id,
                      name: p.name,
                      main: p.isDefault,
                      stages: p.stages
                        .filter((st) => st.semantics === 'process')
                        .map((st) => ({ id: st.id, name: st.name })),
                    })),
                  placeholder: { main: 'settings.defaultPipeline', otherwise: 'settings.portalPipeline' },
                  unset: { main: 'settings.unsetMain', otherwise: 'settings.unsetDefault' },
                  stage: {
                    name: 'stageId',
                    label: 'settings.stage',
                    placeholder: 'settings.firstStage',
                    needsPipeline: 'settings.stageNeedsPipeline',
                  },
                },
                {
                  kind: 'text',
                  name: 'title',
                  label: 'settings.recordTitle',
                  hint: 'settings.templateHint',
                  placeholder: 'settings.titlePlaceholder',
                  maxLength: 250,
                },
                {
                  kind: 'list-select',
                  name: 'ownerId',
                  label: 'settings.responsible',
                  hint: 'settings.responsibleHint',
                  placeholder: 'settings.responsibleNone',
                  list: 'bitrix24Users',
                  read: (answer) => listOf(ZBitrix24User, answer).map((u) => ({ value: u.id, label: u.name })),
                  clearable: true,
                  search: true,
                },
              ],
            },
          ],
        },
        {
          key: 'users',
          label: 'tabs.users',
          cards: [{ widget: 'users', list: 'bitrix24Users', read: (answer) => listOf(ZBitrix24User, answer) }],
        },
      ],
    },
  },
});
