// Google Sheets' screens, drawn by the web (kit/manifest.ts): connected through Google's consent
// (the generic OAuth start; Google returns to the integration's page); the spreadsheet picked from
// the person's Drive, then its sheet and the columns (a header and the lead field under it).
import { DETAIL_WORDS, defineManifest, GENERAL_CARD, LIST_WORDS, listOf } from '../kit/manifest';
import { logo } from './logo';
import { SHEETS_LANGUAGES, SHEETS_MAX_COLUMNS, ZSheetOption, ZSheetsColumn, ZSpreadsheetOption } from './schema';
import type words from './words/uk.json';

export const manifest = defineManifest<typeof words>({
  slug: 'googlesheets',
  kind: 'destination',
  name: 'Google Sheets',
  logo,
  page: {
    title: 'page.title',
    // Google says it in the person's language (Google Таблиці).
    name: 'page.name',
    list: LIST_WORDS,
    connect: {
      methods: [
        {
          key: 'oauth',
          kind: 'oauth',
          label: 'connect.oauth',
          start: [{ method: 'POST', path: '/api/integrations/:id/oauth/start', with: { locale: 'locale' } }],
          url: 'url',
          returns: 'page',
        },
      ],
    },
    detail: {
      ...DETAIL_WORDS,
      tabs: [
        {
          key: 'connection',
          label: 'tabs.connection',
          cards: [GENERAL_CARD, { widget: 'connection', span: { xs: 24, lg: 14 } }],
        },
        {
          key: 'sheet',
          label: 'tabs.sheet',
          cards: [
            {
              widget: 'form',
              span: { xs: 24, xl: 10 },
              title: 'spreadsheet.title',
              save: 'spreadsheet.save',
              saved: 'spreadsheet.saved',
              checkFailed: 'spreadsheet.checkFailed',
              items: [
                {
                  kind: 'list-select',
                  name: 'spreadsheetId',
                  label: 'spreadsheet.label',
                  hint: 'spreadsheet.hint',
                  placeholder: 'spreadsheet.placeholder',
                  list: 'spreadsheets',
                  read: (answer) => listOf(ZSpreadsheetOption, answer).map((s) => ({ value: s.id, label: s.name })),
                  required: true,
                  search: true,
                },
              ],
            },
            {
              widget: 'form',
              span: { xs: 24, xl: 14 },
              title: 'sheet.title',
              save: 'sheet.save',
              saved: 'sheet.saved',
              checkFailed: 'sheet.checkFailed',
              omitEmpty: true,
              items: [
                {
                  kind: 'list-select',
                  name: 'sheetId',
                  label: 'sheet.label',
                  hint: 'sheet.hint',
                  placeholder: 'sheet.placeholder',
                  list: 'sheets',
                  dependsOn: ['spreadsheetId'],
                  read: (answer) => listOf(ZSheetOption, answer).map((s) => ({ value: s.sheetId, label: s.title })),
                  clearable: true,
                },
                {
                  kind: 'segmented',
                  name: 'language',
                  label: 'sheet.language',
                  hint: 'sheet.languageHint',
                  options: SHEETS_LANGUAGES.map((v) => ({ value: v, label: `languages.${v}` as const })),
                  default: 'uk',
                },
                {
                  kind: 'pairs',
                  name: 'columns',
                  title: 'sheet.columns',
                  hint: 'sheet.columnsHint',
                  max: SHEETS_MAX_COLUMNS,
                  itemName: { label: 'sheet.columnName', schema: ZSheetsColumn.shape.name },
                  itemFrom: { label: 'sheet.columnFrom' },
                  add: 'sheet.addColumn',
                  remove: 'sheet.removeColumn',
                },
              ],
            },
          ],
        },
      ],
    },
  },
});
