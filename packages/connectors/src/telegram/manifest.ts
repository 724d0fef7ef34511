// Telegram's screens, drawn by the web (kit/manifest.ts): which bot sends the lead cards (the
// account's own by its BotFather token, or the platform's) and the managers it sends them to. The bot
// is connected and read through the server's Telegram module (the manager bot: /api/telegram/connect
// and /api/telegram/account/:id), named here as data.
import { ZTelegramAccount, ZTelegramConnectBody } from '@leadrelay/shared';
import {
  type ConnectionView,
  DETAIL_WORDS,
  defineManifest,
  GENERAL_CARD,
  LIST_WORDS,
  type WordKey,
} from '../kit/manifest';
import { logo } from './logo';
import type words from './words/uk.json';

type Word = WordKey<typeof words>;

const [own] = ZTelegramConnectBody.options;

/** The bot in use (its @username, own or the platform's), and which bots this server offers. */
function read(answer: unknown): ConnectionView<Word> {
  const account = ZTelegramAccount.parse(answer);
  const mode = account.mode ?? 'own';
  return {
    connected: account.connected,
    details: [
      {
        label: 'connection.bot',
        value: [
          { icon: 'bot' },
          account.botUsername
            ? { text: `@${account.botUsername}`, href: `https://t.me/${account.botUsername}` }
            : { text: '—' },
          { word: `connection.modes.${mode}`, tag: mode === 'own' ? 'blue' : 'default' },
        ],
      },
    ],
    initial: { mode: account.platformAvailable ? 'platform' : 'own' },
    unavailable: account.platformAvailable ? {} : { mode: ['platform'] },
  };
}

export const manifest = defineManifest<typeof words>({
  slug: 'telegram',
  kind: 'destination',
  name: 'Telegram',
  logo,
  page: {
    title: 'page.title',
    list: { ...LIST_WORDS, defaultName: 'list.defaultName' },
    detail: {
      ...DETAIL_WORDS,
      tabs: [
        {
          key: 'connection',
          label: 'tabs.connection',
          cards: [
            GENERAL_CARD,
            {
              widget: 'stack',
              span: { xs: 24, lg: 14 },
              cards: [
                {
                  widget: 'connect',
                  title: 'connection.title',
                  state: { path: '/api/telegram/account/:id', read },
                  submit: { path: '/api/telegram/connect', idField: 'integrationId', answersState: true },
                  bordered: true,
                  next: 'connection.howItWorks',
                  fields: [
                    {
                      kind: 'radio',
                      name: 'mode',
                      label: 'connection.which',
                      options: [
                        {
                          value: 'platform',
                          label: 'connection.modes.platform',
                          hint: 'connection.platformHint',
                          hintUnavailable: 'connection.platformMissing',
                        },
                        { value: 'own', label: 'connection.modes.own', hint: 'connection.ownHint' },
                      ],
                    },
                    {
                      kind: 'secret',
                      name: 'botToken',
                      label: 'connection.token',
                      hint: 'connection.tokenHint',
                      example: '123456789:AA…',
                      required: true,
                      schema: own.shape.botToken,
                      messages: { required: 'connection.tokenRequired', invalid: 'connection.tokenInvalid' },
                      visibleWhen: { field: 'mode', is: 'own' },
                    },
                  ],
                  words: {
                    submit: 'connection.connect',
                    done: 'connection.connected',
                    change: 'connection.change',
                    cancel: 'connection.cancel',
                  },
                },
                {
                  widget: 'collection',
                  title: 'managers.title',
                  hint: 'managers.hint',
                  label: 'managers.collection',
                  none: 'managers.none',
                  empty: 'managers.empty',
                  linked: { field: 'telegram', handle: 'username', yes: 'managers.linked', no: 'managers.notLinked' },
                  manage: 'managers.linkThem',
                },
              ],
            },
          ],
        },
      ],
    },
  },
});
