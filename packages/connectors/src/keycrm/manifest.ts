// KeyCRM's screens, drawn by the web (kit/manifest.ts): the API key (never shown back), saved with a
// connection check; where a lead goes (a pipeline and status listed from KeyCRM, its source, the card's
// title, a manager when distribution assigned none); KeyCRM's users for distribution.
import { ZCrmWatch, ZLoaderUsers } from '@leadrelay/shared';
import { type ConnectionView, DETAIL_WORDS, defineManifest, GENERAL_CARD, LIST_WORDS, listOf } from '../kit/manifest';
import { logo } from './logo';
import { ZKeycrmApiKey, ZKeycrmPipeline, ZKeycrmSettings, ZKeycrmSource } from './schema';
import type words from './words/uk.json';

type Key = `watch.${keyof (typeof words)['watch'] & string}`;

/**
 * The status watch as its card shows it (GET /api/integrations/:id/crm-watch): our address to paste
 * into a KeyCRM trigger's webhook, and whether KeyCRM has called it yet (nothing is pasted back:
 * KeyCRM's webhook carries no token, stage-watch.ts). The instructions show until the first call.
 */
function readWatch(answer: unknown): ConnectionView<Key> {
  const watch = ZCrmWatch.parse(answer);
  if (!watch.address) {
    return {
      connected: false,
      detailsFirst: true,
      details: [{ label: 'watch.state', value: [{ word: 'watch.notConnected' }] }],
    };
  }
  const watching = watch.state === 'watching';
  return {
    connected: watching,
    detailsFirst: true,
    details: [
      { label: 'watch.address', value: [{ text: watch.address, copy: true }] },
      {
        label: 'watch.state',
        value: [{ word: watching ? 'watch.watching' : 'watch.pending', tag: watching ? 'green' : 'gold' }],
      },
    ],
  };
}

/** Users (ids as strings from the generic loader) as the settings keep them: positive whole numbers. */
const users = (answer: unknown) =>
  listOf(ZLoaderUsers.element, answer)
    .map((u) => ({ id: Number(u.id), name: u.name }))
    .filter((u) => Number.isInteger(u.id) && u.id > 0);

export const manifest = defineManifest<typeof words>({
  slug: 'keycrm',
  kind: 'destination',
  name: 'KeyCRM',
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
              text: 'connection.text',
              fields: [
                {
                  kind: 'secret',
                  name: 'apiKey',
                  label: 'connection.apiKey',
                  autoComplete: 'off',
                  maxLength: 200,
                  schema: ZKeycrmApiKey,
                  messages: { required: 'connection.text' },
                },
              ],
              save: 'connection.save',
              connect: 'connection.connect',
              check: 'connection.check',
              result: { ok: 'connection.checkOk', failed: 'connection.checkFailed' },
            },
            {
              // Speed to lead and the lead's stage: a trigger's webhook, made by hand (stage-watch.ts).
              // Nothing to type in: no form (the words of one are never shown).
              widget: 'connect',
              span: { xs: 24 },
              title: 'watch.title',
              intro: 'watch.intro',
              state: { path: '/api/integrations/:id/crm-watch', read: readWatch },
              stateOnly: true,
              fields: [],
              words: {
                submit: 'connection.save',
                done: 'connection.checkOk',
                change: 'connection.save',
                cancel: 'connection.save',
              },
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
              span: { xs: 24, xl: 18, xxl: 14 },
              title: 'settings.title',
              save: 'settings.save',
              saved: 'settings.saved',
              checkFailed: 'settings.checkFailed',
              schema: ZKeycrmSettings,
              omitEmpty: true,
              items: [
                {
                  kind: 'pipeline-stage',
                  name: 'pipelineId',
                  label: 'settings.pipeline',
                  list: 'pipelines',
                  // KeyCRM puts a card into its first pipeline when none is named.
                  read: (answer) => listOf(ZKeycrmPipeline, answer).map((p, i) => ({ ...p, main: i === 0 })),
                  placeholder: { main: 'settings.mainPipeline', otherwise: 'settings.firstPipeline' },
                  unset: { main: 'settings.unsetMain', otherwise: 'settings.unsetFirst' },
                  stage: {
                    name: 'statusId',
                    label: 'settings.status',
                    placeholder: 'settings.firstStatus',
                    needsPipeline: 'settings.statusNeedsPipeline',
                  },
                },
                {
                  kind: 'list-select',
                  name: 'sourceId',
                  label: 'settings.source',
                  hint: 'settings.sourceHint',
                  placeholder: 'settings.sourceNone',
                  list: 'sources',
                  read: (answer) => listOf(ZKeycrmSource, answer).map((s) => ({ value: s.id, label: s.name })),
                  clearable: true,
                  search: true,
                },
                {
                  kind: 'text',
                  name: 'title',
                  label: 'settings.cardTitle',
                  hint: 'settings.templateHint',
                  placeholder: 'settings.cardTitlePlaceholder',
                  maxLength: 250,
                },
                {
                  kind: 'list-select',
                  name: 'managerId',
                  label: 'settings.manager',
                  hint: 'settings.managerHint',
                  placeholder: 'settings.managerNone',
                  list: 'users',
                  read: (answer) => users(answer).map((u) => ({ value: u.id, label: u.name })),
                  clearable: true,
                  search: true,
                },
              ],
            },
          ],
        },
        { key: 'users', label: 'tabs.users', cards: [{ widget: 'users', list: 'users', read: users }] },
      ],
    },
  },
});
