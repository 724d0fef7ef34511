// AlphaSMS's screens, drawn by the web (kit/manifest.ts): the key and the balance, who is texted what
// and when, and the SMS log.
import { SMS_PLACEHOLDERS } from '@leadrelay/shared';
import { DETAIL_WORDS, defineManifest, GENERAL_CARD, LIST_WORDS } from '../kit/manifest';
import { logo } from './logo';
import {
  DEFAULT_QUIET_HOURS,
  SMS_RECIPIENTS,
  SMS_STATUSES,
  SMS_TEXT_MAX,
  type SmsStatus,
  ZAlphaName,
  ZAlphaSmsAuth,
  ZAlphaSmsSettings,
} from './schema';
import type words from './words/uk.json';

const STATUS_COLOR: Record<SmsStatus, string> = {
  sent: 'blue',
  delivered: 'green',
  read: 'cyan',
  undelivered: 'red',
  expired: 'orange',
};

export const manifest = defineManifest<typeof words>({
  slug: 'alfasms',
  kind: 'destination',
  name: 'AlphaSMS',
  logo,
  page: {
    title: 'page.title',
    list: LIST_WORDS,
    detail: {
      ...DETAIL_WORDS,
      tabs: [
        {
          key: 'connection',
          label: 'tabs.connection',
          cards: [
            GENERAL_CARD,
            {
              widget: 'credentials',
              span: { xs: 24, lg: 14 },
              title: 'connection.title',
              fields: [
                {
                  kind: 'secret',
                  name: 'apiKey',
                  target: 'auth',
                  label: 'connection.apiKey',
                  hint: 'connection.apiKeyHint',
                  schema: ZAlphaSmsAuth.shape.apiKey,
                },
              ],
              save: 'connection.save',
              result: { ok: 'connection.checkOk', failed: 'connection.checkFailed' },
              check: 'connection.check',
              figure: {
                list: 'balance',
                label: 'connection.balance',
                refresh: 'connection.refreshBalance',
                format: 'money',
              },
            },
          ],
        },
        {
          key: 'messages',
          label: 'tabs.messages',
          cards: [
            {
              widget: 'form',
              span: { xs: 24, xl: 18, xxl: 14 },
              title: 'settings.title',
              schema: ZAlphaSmsSettings,
              save: 'settings.save',
              items: [
                {
                  kind: 'text',
                  name: 'sender',
                  label: 'settings.sender',
                  hint: 'settings.senderHint',
                  maxLength: 11,
                  example: 'LeadRelay',
                  mono: true,
                  required: true,
                  schema: ZAlphaName,
                },
                { kind: 'switch', name: 'viber', label: 'settings.viber', hint: 'settings.viberHint', default: false },
                {
                  kind: 'text',
                  name: 'viberSender',
                  label: 'settings.viberSender',
                  hint: 'settings.viberSenderHint',
                  maxLength: 30,
                  visibleWhen: { field: 'viber', is: true },
                },
                {
                  kind: 'radio',
                  name: 'recipients',
                  label: 'settings.recipients',
                  options: SMS_RECIPIENTS.map((r) => ({ value: r, label: `recipients.${r}` as const })),
                  default: 'lead',
                },
                {
                  kind: 'template',
                  name: 'leadTemplate',
                  label: 'settings.leadTemplate',
                  hint: 'settings.templateHint',
                  placeholders: SMS_PLACEHOLDERS,
                  preview: 'template.preview',
                  counter: 'sms',
                  maxLength: SMS_TEXT_MAX,
                  default: { word: 'defaults.lead' },
                  visibleWhen: { field: 'recipients', not: 'manager' },
                },
                {
                  kind: 'template',
                  name: 'managerTemplate',
                  label: 'settings.managerTemplate',
                  placeholders: SMS_PLACEHOLDERS,
                  preview: 'template.previewManager',
                  counter: 'sms',
                  maxLength: SMS_TEXT_MAX,
                  default: { word: 'defaults.manager' },
                  visibleWhen: { field: 'recipients', not: 'lead' },
                },
                {
                  kind: 'phone',
                  name: 'managerPhone',
                  label: 'settings.managerPhone',
                  hint: 'settings.managerPhoneHint',
                  example: '+380 67 111 22 33',
                  visibleWhen: { field: 'recipients', not: 'lead' },
                },
                { kind: 'checkbox', name: 'international', label: 'settings.international', default: false },
                {
                  kind: 'time-range',
                  name: 'quietHours',
                  label: 'settings.quietHours',
                  hint: 'settings.quietHint',
                  from: 'settings.quietFrom',
                  to: 'settings.quietTo',
                  default: DEFAULT_QUIET_HOURS,
                },
              ],
            },
          ],
        },
        {
          key: 'log',
          label: 'tabs.log',
          cards: [
            {
              widget: 'records',
              record: 'sms',
              title: 'log.title',
              hint: 'log.hint',
              empty: 'log.empty',
              statuses: {
                label: 'log.status',
                all: 'log.allStatuses',
                options: SMS_STATUSES.map((s) => ({ value: s, label: `status.${s}` as const, color: STATUS_COLOR[s] })),
              },
              columns: [
                { width: 150, column: { show: 'date-time', field: 'createdAt', title: 'log.at' } },
                {
                  width: 170,
                  column: {
                    show: 'phone',
                    field: 'phone',
                    title: 'log.to',
                    under: { field: 'recipient', words: 'recipients' },
                  },
                },
                { column: { show: 'text', field: 'text', title: 'log.text' } },
                {
                  width: 80,
                  column: {
                    show: 'count',
                    field: 'parts',
                    title: 'log.parts',
                    note: { field: 'channel', except: 'sms', word: 'channels.viber' },
                  },
                },
                { width: 130, column: { show: 'status', title: 'log.status' } },
                { width: 90, column: { show: 'amount', field: 'cost', title: 'log.cost' } },
              ],
            },
          ],
        },
      ],
    },
  },
});
