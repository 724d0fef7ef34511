import enSheets from '../../../packages/connectors/src/googlesheets/words/en.json' with { type: 'json' };
import ukSheets from '../../../packages/connectors/src/googlesheets/words/uk.json' with { type: 'json' };
import { baseURL } from '../playwright.config';
import { signUp } from './support/actions';
import { pick, postLead, sourceTo, stateOf } from './support/flow';
import { texts, uniqueLogin } from './support/locales';
import { expectFits } from './support/screens';
import { expect, type Page, test } from './support/test';
import { UUID, urlMatching } from './support/url';

// Issue 32's check for Google Sheets, against the Google emulator the e2e server runs
// (EMULATORS=true): connect through Google's consent from Google Sheets' own screen, pick a
// spreadsheet from Drive and one of its sheets, and each lead a website form sends lands as a row
// under the header, one row per lead.
const words = { en: enSheets, uk: ukSheets } as const;
const LEADS_SPREADSHEET = '1LeadsSpreadsheet2026xxxxxxxxxxxxxxxxxxxxx';

let sheets: { url: string };
test.beforeAll(async ({ request }) => {
  sheets = (await (await request.get(`${baseURL}/api/emulators`)).json()).googlesheets;
});

/** Creates a Google Sheets connection on its own list page and comes back from Google's consent, connected. */
async function connect(page: Page, lang: 'en' | 'uk', name: string): Promise<void> {
  const t = texts[lang];
  await page.getByRole('button', { name: words[lang].list.connect }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(t.crm.create.name).fill(name);
  await dialog.getByRole('button', { name: t.crm.create.go.replace('{{crm}}', 'Google Sheets') }).click();
  // Google's consent (the emulator) sends the browser back to the integration, connected.
  await expect(page).toHaveURL(urlMatching(`${t.prefix}/admin/integrations/googlesheets/${UUID}`), { timeout: 20_000 });
  await expect(page.getByText(t.crm.connection.connected, { exact: true }).first()).toBeVisible();
}

/** Picks the spreadsheet, saves it, then the sheet its list now offers, and saves that. */
async function chooseSheet(page: Page, lang: 'en' | 'uk', sheet: string): Promise<void> {
  const w = words[lang];
  await page.getByRole('tab', { name: w.tabs.sheet }).click();
  await pick(page, w.spreadsheet.label, 'Ліди 2026');
  await page.getByRole('button', { name: w.spreadsheet.save }).click();
  await expect(page.getByText(w.spreadsheet.saved)).toBeVisible();
  // The sheets follow the spreadsheet just saved.
  await pick(page, w.sheet.label, sheet);
  await page.getByRole('button', { name: w.sheet.save }).click();
  await expect(page.getByText(w.sheet.saved)).toBeVisible();
}

test('each website lead lands as a row under the header of the sheet chosen on Google Sheets’ screen', async ({
  page,
}) => {
  await signUp(page, 'en', uniqueLogin('sheets'), 'Secret123', '/admin/integrations/googlesheets');
  await connect(page, 'en', 'Leads sheet');
  await chooseSheet(page, 'en', 'Архів');

  const hookUrl = await sourceTo(page, 'Leads sheet');
  const rows = async () =>
    (await stateOf<{ rows: string[][] }>(sheets.url, `/__emulator/rows?spreadsheetId=${LEADS_SPREADSHEET}&sheet=Архів`))
      .rows;
  await postLead(hookUrl, { name: 'Taras Shevchenko', phone: '067 555 44 33', email: 'taras@example.com' });
  await expect.poll(async () => (await rows()).length, { timeout: 30_000 }).toBe(2);
  await postLead(hookUrl, { name: 'Lesya Ukrainka', phone: '050 111 22 33', comment: '=1+1' });
  await expect.poll(async () => (await rows()).length, { timeout: 30_000 }).toBe(3);

  const [header, first, second] = await rows();
  // The header in the default language (Ukrainian), the lead id first; a lead's "=1+1" stays text.
  expect(header).toEqual(['ID ліда (LeadRelay)', 'Ім’я', 'Телефон', 'E-mail', 'Коментар', 'Джерело', 'Кампанія']);
  expect(first?.slice(1, 4)).toEqual(['Taras Shevchenko', '+380675554433', 'taras@example.com']);
  expect(second?.slice(1, 5)).toEqual(['Lesya Ukrainka', '+380501112233', '', '=1+1']);
  expect(first?.[0]).not.toBe(second?.[0]);
  // Nothing else was written anywhere: the other sheet is empty.
  const other = await stateOf<{ rows: string[][] }>(
    sheets.url,
    `/__emulator/rows?spreadsheetId=${LEADS_SPREADSHEET}&sheet=${encodeURIComponent('Аркуш1')}`,
  );
  expect(other.rows).toEqual([]);
});

for (const lang of ['uk', 'en'] as const) {
  for (const width of [375, 1440]) {
    test(`${lang} at ${width}px: Google Sheets' spreadsheet and columns tab fits and speaks ${lang}`, async ({
      page,
    }) => {
      const w = words[lang];
      await page.setViewportSize({ width, height: width < 768 ? 812 : 900 });
      await signUp(page, lang, uniqueLogin(`sheets-${lang}-${width}`), 'Secret123', '/admin/integrations/googlesheets');
      await expect(page.getByText(w.list.empty.title)).toBeVisible();
      await expectFits(page, `googlesheets-list-${lang}-${width}`);
      await connect(page, lang, 'Sheet');
      await expectFits(page, `googlesheets-connection-${lang}-${width}`);
      await chooseSheet(page, lang, 'Аркуш1');
      await page.getByRole('button', { name: w.sheet.addColumn }).click();
      await expect(page.getByText(w.sheet.columns).first()).toBeVisible();
      await expectFits(page, `googlesheets-sheet-${lang}-${width}`);
    });
  }
}
