// HTTP webhook's screen, drawn by the web (kit/manifest.ts): where each lead is POSTed, the signing
// secret (write-only, optional), extra headers, what the body holds; saved with a connection check.
import { DETAIL_WORDS, defineManifest, GENERAL_CARD, LIST_WORDS } from '../kit/manifest';
import { logo } from './logo';
import { HTTP_FORMATS, MAX_HEADERS, ZHeaderName, ZHeaderValue, ZHttpAuth, ZHttpUrl } from './schema';
import type words from './words/uk.json';

export const manifest = defineManifest<typeof words>({
  slug: 'http',
  kind: 'destination',
  name: 'HTTP webhook',
  logo,
  page: {
    title: 'page.title',
    name: 'page.name',
    list: LIST_WORDS,
    detail: {
      ...DETAIL_WORDS,
      tabs: [
        {
          key: 'settings',
          label: 'tabs.settings',
          cards: [
            // The address comes first: its form is what the page is for.
            {
              widget: 'credentials',
              span: { xs: 24, lg: 14 },
              title: 'settings.title',
              fields: [
                {
                  kind: 'text',
                  name: 'url',
                  label: 'settings.url',
                  hint: 'settings.urlHint',
                  example: 'https://example.com/leads',
                  inputMode: 'url',
                  mono: true,
                  required: true,
                  schema: ZHttpUrl,
                  messages: { invalid: 'settings.badUrl' },
                },
                {
                  kind: 'secret',
                  name: 'secret',
                  label: 'settings.secret',
                  hint: 'settings.secretHint',
                  placeholder: 'settings.secretPlaceholder',
                  schema: ZHttpAuth.shape.secret,
                  optional: true,
                  remove: 'settings.removeSecret',
                },
                {
                  kind: 'pairs',
                  name: 'headers',
                  keyed: true,
                  title: 'settings.headers',
                  hint: 'settings.headersHint',
                  max: MAX_HEADERS,
                  itemName: { label: 'settings.headerName', schema: ZHeaderName, invalid: 'settings.badHeader' },
                  itemFrom: {
                    value: { label: 'settings.headerValue', schema: ZHeaderValue, invalid: 'settings.badHeaderValue' },
                  },
                  add: 'settings.addHeader',
                  remove: 'settings.removeHeader',
                },
                {
                  kind: 'radio',
                  name: 'format',
                  label: 'settings.format',
                  options: HTTP_FORMATS.map((f) => ({
                    value: f,
                    label: f === 'lead' ? ('settings.formatLead' as const) : ('settings.formatRaw' as const),
                  })),
                  default: 'lead',
                },
                { kind: 'note', name: 'signature', text: 'settings.signatureHint' },
              ],
              save: 'settings.save',
              result: { ok: 'settings.checkOk', failed: 'settings.checkFailed' },
              check: 'settings.check',
            },
            GENERAL_CARD,
          ],
        },
      ],
    },
  },
});
