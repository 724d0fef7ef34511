// Google Analytics 4's screens, drawn by the web (kit/manifest.ts): the stream's measurement id and
// API secret, the event sent on every lead with its parameters, and a test lead through Google's
// validation server (the `debug` action).

import { type ActionReport, DETAIL_WORDS, defineManifest, GENERAL_CARD, LIST_WORDS } from '../kit/manifest';
import { logo } from './logo';
import {
  GA_DEFAULT_CLIENT_ID_FIELD,
  GA_DEFAULT_EVENT,
  GA_MAX_CUSTOM_PARAMS,
  GA_REGIONS,
  ZGaAuth,
  ZGaDebugResult,
  ZGaParamMapping,
  ZGaSettings,
} from './schema';
import type words from './words/uk.json';

const settings = ZGaSettings.shape;

/** The debug action's answer: our limits' issues, then Google's validation messages. */
function report(answer: unknown): ActionReport {
  const r = ZGaDebugResult.parse(answer);
  return {
    ok: r.valid,
    issues: r.issues,
    messages: r.validationMessages.map((m) => ({ code: m.validationCode, path: m.fieldPath, text: m.description })),
    payload: r.payload,
  };
}

export const manifest = defineManifest<typeof words>({
  slug: 'ga',
  kind: 'destination',
  name: 'Google Analytics 4',
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
                  kind: 'text',
                  name: 'measurementId',
                  label: 'connection.measurementId',
                  hint: 'connection.measurementIdHint',
                  example: 'G-XXXXXXXXXX',
                  mono: true,
                  upperCase: true,
                  maxLength: 22,
                  required: true,
                  schema: settings.measurementId,
                },
                {
                  kind: 'secret',
                  name: 'apiSecret',
                  target: 'auth',
                  label: 'connection.apiSecret',
                  hint: 'connection.apiSecretHint',
                  schema: ZGaAuth.shape.apiSecret,
                },
                {
                  kind: 'radio',
                  name: 'region',
                  label: 'connection.region',
                  hint: 'connection.regionHint',
                  options: GA_REGIONS.map((r) => ({ value: r, label: `regions.${r}` as const })),
                  default: 'global',
                },
              ],
              save: 'connection.save',
              result: { ok: 'connection.checkOk', failed: 'connection.checkFailed' },
            },
          ],
        },
        {
          key: 'event',
          label: 'tabs.event',
          cards: [
            {
              widget: 'form',
              span: { xs: 24, xl: 14 },
              title: 'event.title',
              save: 'event.save',
              elsewhere: 'event.connectFirst',
              items: [
                {
                  kind: 'text',
                  name: 'eventName',
                  label: 'event.name',
                  hint: 'event.nameHint',
                  mono: true,
                  maxLength: 40,
                  required: true,
                  schema: settings.eventName.unwrap(),
                  default: GA_DEFAULT_EVENT,
                },
                {
                  row: [
                    { kind: 'number', name: 'value', label: 'event.value', hint: 'event.valueHint', min: 0 },
                    { kind: 'lead-path', name: 'valueField', label: 'event.valueField' },
                    {
                      kind: 'text',
                      name: 'currency',
                      label: 'event.currency',
                      maxLength: 3,
                      mono: true,
                      upperCase: true,
                      schema: settings.currency.unwrap(),
                      default: 'UAH',
                    },
                    { kind: 'lead-path', name: 'currencyField', label: 'event.currencyField' },
                    {
                      kind: 'lead-path',
                      name: 'clientIdField',
                      label: 'event.clientIdField',
                      hint: 'event.clientIdHint',
                      required: true,
                      default: GA_DEFAULT_CLIENT_ID_FIELD,
                    },
                    { kind: 'lead-path', name: 'userIdField', label: 'event.userIdField', hint: 'event.userIdHint' },
                  ],
                },
                { kind: 'switch', name: 'utm', label: 'event.utm', hint: 'event.utmHint', default: true },
                {
                  kind: 'pairs',
                  name: 'params',
                  title: 'event.params',
                  hint: 'event.paramsHint',
                  max: GA_MAX_CUSTOM_PARAMS,
                  itemName: { label: 'event.paramName', schema: ZGaParamMapping.shape.name, mono: true },
                  itemFrom: { label: 'event.paramFrom' },
                  add: 'event.addParam',
                  remove: 'event.removeParam',
                },
              ],
            },
            {
              widget: 'test-send',
              span: { xs: 24, xl: 10 },
              action: 'debug',
              title: 'test.title',
              hint: 'test.hint',
              fields: [
                { path: 'name', label: 'test.name', placeholder: 'test.namePlaceholder', maxLength: 200 },
                {
                  path: 'email',
                  label: 'test.email',
                  example: 'olena@example.com',
                  maxLength: 254,
                  inputMode: 'email',
                },
                { path: 'utm.source', label: 'test.utmSource', example: 'instagram', maxLength: 100 },
                {
                  path: 'custom._ga',
                  label: 'test.gaCookie',
                  example: 'GA1.1.1234567890.1700000000',
                  maxLength: 100,
                  mono: true,
                },
              ],
              send: 'test.send',
              report,
              words: {
                ok: 'test.valid',
                okHint: 'test.validHint',
                failed: 'test.invalid',
                said: 'test.google',
                payload: 'test.payload',
                codes: 'validation',
              },
            },
          ],
        },
      ],
    },
  },
});
