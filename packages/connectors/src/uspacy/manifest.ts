// Uspacy's screens, drawn by the web (kit/manifest.ts): connected with the portal's incoming
// webhook or by signing in with an account (the password goes to Uspacy once, never kept); where
// leads go (a lead or a deal, its funnel and stage, title, responsible user, comment); lead fields →
// the portal's fields of the record and of the contact; the portal's users. The paths beside the
// generic ones are Uspacy's own routes.

import { z } from 'zod';
import { DETAIL_WORDS, defineManifest, GENERAL_CARD, LIST_WORDS, listOf, type MappingTarget } from '../kit/manifest';
import { logo } from './logo';
import { parseIncomingWebhook, portalOrigin, USPACY_TARGETS, ZUspacyField, ZUspacyFunnel, ZUspacyUser } from './schema';
import type words from './words/uk.json';

/** The portal's fields of one entity from the uspacyFields loader ({ lead, deal, contact }). */
const fieldsOf =
  (entity: 'lead' | 'deal' | 'contact') =>
  (answer: unknown): MappingTarget[] =>
    listOf(ZUspacyField, (answer as Record<typeof entity, unknown> | null)?.[entity] ?? []).map((f) => ({
      key: f.code,
      name: f.name,
    }));

// The shape only: the server checks the host against the addresses it allows.
const ZWebhookUrl = z.string().refine((v) => parseIncomingWebhook(v) !== undefined, {
  error: 'USPACY_WEBHOOK_URL_INVALID',
});
const ZPortal = z.string().refine((v) => portalOrigin(v) !== undefined, { error: 'USPACY_PORTAL_INVALID' });

export const manifest = defineManifest<typeof words>({
  slug: 'uspacy',
  kind: 'destination',
  name: 'Uspacy',
  logo,
  page: {
    title: 'page.title',
    list: LIST_WORDS,
    connect: {
      methods: [
        {
          key: 'credentials',
          kind: 'credentials',
          call: { method: 'POST', path: '/api/uspacy/connect', with: { id: 'integrationId' } },
          sayFailed: true,
          // The recommended way first: an incoming webhook an administrator makes once, no password involved.
          items: [
            {
              kind: 'radio',
              name: 'mode',
              spaced: true,
              label: 'connect.method',
              options: [
                { value: 'webhook', label: 'modes.webhook' },
                { value: 'password', label: 'modes.password' },
              ],
              default: 'webhook',
            },
            {
              kind: 'secret',
              name: 'webhookUrl',
              label: 'connect.webhookUrl',
              hint: 'connect.webhookHint',
              example: 'https://your-company.uspacy.ua/company/v1/incoming_webhooks/run/…',
              required: true,
              schema: ZWebhookUrl,
              visibleWhen: { field: 'mode', is: 'webhook' },
            },
            {
              kind: 'text',
              name: 'portal',
              label: 'connect.portal',
              hint: 'connect.portalHint',
              example: 'your-company.uspacy.ua',
              autoComplete: 'off',
              maxLength: 200,
              required: true,
              schema: ZPortal,
              visibleWhen: { field: 'mode', is: 'password' },
            },
            {
              kind: 'text',
              name: 'email',
              label: 'connect.email',
              inputMode: 'email',
              autoComplete: 'off',
              maxLength: 200,
              required: true,
              schema: z.email({ error: 'EMAIL' }),
              visibleWhen: { field: 'mode', is: 'password' },
            },
            {
              wrap: true,
              row: [
                {
                  kind: 'secret',
                  name: 'password',
                  label: 'connect.password',
                  autoComplete: 'new-password',
                  maxLength: 200,
                  exact: true,
                  required: true,
                  visibleWhen: { field: 'mode', is: 'password' },
                },
                {
                  kind: 'text',
                  name: 'code',
                  label: 'connect.code',
                  autoComplete: 'one-time-code',
                  inputMode: 'numeric',
                  maxLength: 20,
                  narrow: true,
                  visibleWhen: { field: 'mode', is: 'password' },
                },
              ],
            },
            {
              kind: 'note',
              name: 'passwordNote',
              text: 'connect.passwordHint',
              visibleWhen: { field: 'mode', is: 'password' },
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
                  call: { method: 'GET', path: '/api/uspacy/account/:id' },
                  when: 'connected',
                  rows: [
                    { field: 'portal', label: 'account.portal' },
                    {
                      field: 'mode',
                      label: 'account.connectedVia',
                      words: { group: 'modesShort', fallback: 'webhook' },
                    },
                    { field: 'email', label: 'account.email' },
                  ],
                },
              ],
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
                  options: USPACY_TARGETS.map((v) => ({ value: v, label: `targets.${v}` as const })),
                  default: 'lead',
                  // The funnels of leads and of deals are different lists.
                  clears: ['funnelId', 'stageId'],
                },
                {
                  kind: 'pipeline-stage',
                  name: 'funnelId',
                  label: 'settings.funnel',
                  list: {
                    field: 'target',
                    lists: [
                      { is: 'lead', list: 'leadFunnels' },
                      { is: 'deal', list: 'dealFunnels' },
                    ],
                  },
                  // A new record goes into a working stage: the closing ones (won, lost) are not offered.
                  read: (answer) =>
                    listOf(ZUspacyFunnel, answer).map((f) => ({
                      id: f.id,
                      name: f.title,
                      main: f.isDefault,
                      stages: f.stages
                        .filter((st) => !st.isSystem)
                        .sort((a, b) => a.sort - b.sort)
                        .map((st) => ({ id: st.id, name: st.title })),
                    })),
                  placeholder: { main: 'settings.defaultFunnel', otherwise: 'settings.portalFunnel' },
                  unset: { main: 'settings.unsetMain', otherwise: 'settings.unsetDefault' },
                  stage: {
                    name: 'stageId',
                    label: 'settings.stage',
                    placeholder: 'settings.firstStage',
                    needsPipeline: 'settings.stageNeedsFunnel',
                  },
                },
                {
                  kind: 'text',
                  name: 'title',
                  label: 'settings.dealTitle',
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
                  list: 'uspacyUsers',
                  read: (answer) => listOf(ZUspacyUser, answer).map((u) => ({ value: u.id, label: u.name })),
                  clearable: true,
                  search: true,
                },
                { kind: 'switch', name: 'note', label: 'settings.note', hint: 'settings.noteHint', default: true },
              ],
            },
          ],
        },
        {
          key: 'fields',
          label: 'tabs.fields',
          cards: [
            {
              widget: 'mapping',
              hint: 'mapping.hint',
              max: 50,
              // The chosen record's fields (a lead's or a deal's), then the contact's.
              groups: [
                {
                  entity: 'lead',
                  label: 'mapping.groups.lead',
                  list: 'uspacyFields',
                  read: fieldsOf('lead'),
                  when: { field: 'target', not: 'deal' },
                },
                {
                  entity: 'deal',
                  label: 'mapping.groups.deal',
                  list: 'uspacyFields',
                  read: fieldsOf('deal'),
                  when: { field: 'target', is: 'deal' },
                },
                { entity: 'contact', label: 'mapping.groups.contact', list: 'uspacyFields', read: fieldsOf('contact') },
              ],
              stored: { key: 'code' },
            },
          ],
        },
        {
          key: 'users',
          label: 'tabs.users',
          cards: [{ widget: 'users', list: 'uspacyUsers', read: (answer) => listOf(ZUspacyUser, answer) }],
        },
      ],
    },
  },
});
