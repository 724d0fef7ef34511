// SendPulse's screens, drawn by the web (kit/manifest.ts): the REST API app's ID and Secret (never
// shown back) with the chatbot the CRM widget reads (its channel, bot and the variable with
// the phone), saved with a connection check; and the CRM pipeline and step a lead's deal goes into.
// The connection card is also the one the widget's admin page shows for the integration it uses.
import { DETAIL_WORDS, defineManifest, GENERAL_CARD, LIST_WORDS, listOf } from '../kit/manifest';
import { logo } from './logo';
import { SENDPULSE_CHANNELS, ZSendpulseAuth, ZSendpulsePipeline, ZSendpulseSettings } from './schema';
import type words from './words/uk.json';

export const manifest = defineManifest<typeof words>({
  slug: 'sendpulse',
  kind: 'destination',
  name: 'SendPulse',
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
                // The app's ID and Secret go together: typing one asks for the other, with the line
                // that says where to find them.
                {
                  kind: 'text',
                  name: 'clientId',
                  target: 'auth',
                  label: 'connection.clientId',
                  autoComplete: 'off',
                  schema: ZSendpulseAuth.shape.clientId,
                  messages: { required: 'connection.text' },
                },
                {
                  kind: 'secret',
                  name: 'clientSecret',
                  label: 'connection.clientSecret',
                  schema: ZSendpulseAuth.shape.clientSecret,
                  messages: { required: 'connection.text' },
                },
                {
                  kind: 'select',
                  name: 'channel',
                  label: 'connection.channel',
                  options: SENDPULSE_CHANNELS.map((c) => ({ value: c, label: `channels.${c}` as const })),
                  default: 'telegram',
                },
                {
                  kind: 'text',
                  name: 'botId',
                  label: 'connection.botId',
                  hint: 'connection.botIdHint',
                  autoComplete: 'off',
                  maxLength: 100,
                },
                // Emptied, the server's default (phone) is saved.
                {
                  kind: 'text',
                  name: 'matchVariable',
                  label: 'connection.matchVariable',
                  autoComplete: 'off',
                  maxLength: 100,
                  default: 'phone',
                  schema: ZSendpulseSettings.shape.matchVariable,
                },
              ],
              save: 'connection.save',
              connect: 'connection.connect',
              result: { ok: 'connection.checkOk', failed: 'connection.checkFailed' },
            },
          ],
        },
        {
          key: 'deals',
          label: 'tabs.deals',
          cards: [
            {
              widget: 'form',
              span: { xs: 24, xl: 18, xxl: 14 },
              title: 'deals.title',
              save: 'deals.save',
              saved: 'deals.saved',
              omitEmpty: true,
              items: [
                { kind: 'note', name: 'dealsNote', text: 'deals.hint' },
                {
                  kind: 'pipeline-stage',
                  name: 'pipelineId',
                  label: 'deals.pipeline',
                  list: 'pipelines',
                  read: (answer) =>
                    listOf(ZSendpulsePipeline, answer).map((p) => ({ id: p.id, name: p.name, stages: p.steps })),
                  placeholder: { otherwise: 'deals.noPipeline' },
                  unset: { otherwise: 'deals.unset' },
                  stage: {
                    name: 'stepId',
                    label: 'deals.step',
                    placeholder: 'deals.firstStep',
                    needsPipeline: 'deals.stepNeedsPipeline',
                  },
                },
              ],
            },
          ],
        },
      ],
    },
  },
});
