import type { Page } from '@playwright/test';
import { baseURL } from '../playwright.config';
import { signUp } from './support/actions';
import { pick, stateOf } from './support/flow';
import { LANGS, texts, uniqueLogin } from './support/locales';
import { expectFits } from './support/screens';
import { expect, test } from './support/test';
import { UUID, urlMatching } from './support/url';

// Issue 33's "done when" in Chromium through the emulators: a Meta lead delivered to amoCRM and moved
// to "won" there produces exactly one conversion event per stage at the Graph emulator (Lead, then the
// stage's), with the lead's leadgen id, visible in the lead's log, and the only set-up is choosing
// the dataset on the source's page.
const t = texts.en;
const c = t.crm;
const fb = t.facebook;
const i = t.integrations;
const cv = i.conversions;

const DATASET = { id: '90000000000002', name: 'Kyiv Dental Studio CRM' };
const WON = 142;

interface Emulators {
  amocrm: { url: string };
  facebook: { url: string };
}
interface CapiEvent {
  datasetId: string;
  eventName: string;
  /** Unix seconds, as sent. */
  eventTime: number;
  actionSource: string;
  leadId: string;
  eventSource: string;
  isDuplicate: boolean;
  raw: { user_data?: { lead_id?: unknown }; custom_data?: { event_source?: unknown } };
}
type AmoState = { leads: { id: number; pipeline_id: number; status_id: number }[] };

let emulators: Emulators;
test.beforeAll(async ({ request }) => {
  emulators = await (await request.get(`${baseURL}/api/emulators`)).json();
});

/** The Graph emulator's events of one lead at the dataset, in the order it took them. */
const eventsOf = async (leadgenId: string) =>
  (
    await stateOf<{ events: CapiEvent[] }>(emulators.facebook.url, `/__emulator/capi/events?dataset=${DATASET.id}`)
  ).events.filter((e) => e.leadId === leadgenId);

/** Opens the newest lead of the source's log (a row on a desktop, a card on a phone). */
async function openLead(page: Page, lang: 'uk' | 'en', sourcePath: string) {
  await page.goto(`${texts[lang].prefix}${sourcePath}?tab=leads`);
  const row = page.getByTestId('hook-row').first();
  const card = row.locator('.lr-hook-card-body');
  await ((await card.count()) ? card : row).click();
  return page.getByTestId('conversions-section');
}

test('a Meta lead moved to won in amoCRM reaches the dataset once per stage, set up by choosing the dataset', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signUp(page, 'en', uniqueLogin('capi'), 'Secret123', '/admin/integrations/amocrm');

  // amoCRM (its emulator) as the CRM: connected through its consent, it tells LeadRelay of stage changes.
  await page.getByRole('button', { name: t.amocrm.list.connect }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(c.create.name).fill('Sales amoCRM');
  await dialog.getByRole('button', { name: c.create.go.replace('{{crm}}', 'amoCRM') }).click();
  await expect(page).toHaveURL(urlMatching(`/en/admin/integrations/amocrm/${UUID}`), { timeout: 15_000 });
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId('crm-watch-state')).toHaveText(
      c.connection.watch.watching.replaceAll('{{crm}}', 'amoCRM'),
      { timeout: 3_000 },
    );
  }).toPass({ timeout: 30_000 });

  // Facebook (the Graph emulator): a page subscribed, an integration of its lead form, delivering to amoCRM.
  await page.goto(`${t.prefix}/admin/integrations/facebook`);
  await page.getByRole('button', { name: fb.connect.button }).first().click();
  await expect(page).toHaveURL(urlMatching('/en/admin/integrations/facebook(\\?.*)?'), { timeout: 15_000 });
  await page.getByRole('switch', { name: fb.pages.subscribeFor.replace('{{name}}', 'Kyiv Dental Studio') }).click();
  await expect(page.getByText(fb.pages.subscribed)).toBeVisible();
  await page.getByRole('button', { name: fb.pages.forms }).first().click();
  await page.getByRole('button', { name: fb.forms.createFor.replace('{{name}}', 'Free consultation') }).click();
  await expect(page).toHaveURL(urlMatching(`/en/admin/integrations/facebook/${UUID}`));
  const sourcePath = new URL(page.url()).pathname.replace(/^\/en/, '');

  await page.getByRole('tab', { name: /Destinations/ }).click();
  await pick(page, i.destinations.pick, 'Sales amoCRM');
  await page.getByRole('button', { name: i.destinations.add, exact: true }).click();
  await expect(page.getByTestId('destination-row').filter({ hasText: 'Sales amoCRM' })).toBeVisible();

  // The only set-up: sending switched on, the dataset chosen.
  await page.getByRole('tab', { name: i.tabs.settings }).click();
  const card = page.getByTestId('conversions-card');
  await expect(card.getByTestId('capi-state')).toHaveText(cv.off);
  await card.getByRole('switch', { name: cv.enabled.replace('{{to}}', 'Meta') }).click();
  await expect(card.getByRole('button', { name: cv.save })).toBeDisabled();
  await pick(page, cv.dataset, DATASET.name);
  await card.getByRole('button', { name: cv.save }).click();
  await expect(card.getByTestId('capi-state')).toHaveText(cv.on);

  // The card, its event names unfolded, in both languages on a phone and a desktop.
  for (const lang of LANGS) {
    for (const width of [375, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${texts[lang].prefix}${sourcePath}`);
      const shown = page.getByTestId('conversions-card');
      await shown.getByText(texts[lang].integrations.conversions.events.title).click();
      await expect(shown.getByTestId('capi-stage').first()).toBeVisible();
      await expect(shown.locator('.ant-select-content', { hasText: DATASET.name })).toBeVisible();
      await expectFits(page, `capi-card-${lang}-${width}`);
    }
  }

  // A person submits the form; the lead reaches amoCRM.
  const before = new Set((await stateOf<AmoState>(emulators.amocrm.url)).leads.map((l) => l.id));
  const submitted = await fetch(`${emulators.facebook.url}/__emulator/submit-lead`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      formId: '30000000000001',
      fieldData: [
        { name: 'full_name', values: ['Lesia Ukrainka'] },
        { name: 'email', values: ['lesia@example.com'] },
        { name: 'phone_number', values: ['+380671112244'] },
      ],
    }),
  });
  expect(submitted.status).toBe(200);
  const { leadgenId } = (await submitted.json()) as { leadgenId: string };
  const newLead = async () => (await stateOf<AmoState>(emulators.amocrm.url)).leads.find((l) => !before.has(l.id));
  await expect.poll(newLead, { timeout: 30_000 }).toBeDefined();
  const lead = (await newLead())!;
  // A manager moves it to "won" in amoCRM at once (the initial event was made with the delivery).
  const moved = await fetch(`${emulators.amocrm.url}/__emulator/leads/${lead.id}/status`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ status_id: WON, pipeline_id: lead.pipeline_id }),
  });
  expect(moved.status).toBe(200);

  // Exactly one event per stage, in order: Lead when delivered, then the stage under its name in
  // amoCRM; within seconds (the sender is woken when an event is made, it does not wait for its poll).
  await expect
    .poll(async () => (await eventsOf(leadgenId)).map((e) => e.eventName), { timeout: 10_000, intervals: [500] })
    .toEqual(['Lead', 'Closed - won']);
  const [initial, won] = await eventsOf(leadgenId);
  expect(initial!.eventTime).toBeLessThanOrEqual(won!.eventTime);
  for (const e of await eventsOf(leadgenId)) {
    expect(e).toMatchObject({ actionSource: 'system_generated', eventSource: 'crm', isDuplicate: false });
    expect(String(e.raw.user_data?.lead_id)).toBe(leadgenId);
    expect(e.raw.custom_data?.event_source).toBe('crm');
  }

  // The lead's log shows both as sent, with Meta's answer.
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect(async () => {
    const section = await openLead(page, 'en', sourcePath);
    await expect(section.locator('[data-testid="conversion-row"][data-state="sent"]')).toHaveCount(2, {
      timeout: 3_000,
    });
  }).toPass({ timeout: 45_000 });
  const rows = page.getByTestId('conversion-row');
  await expect(rows.nth(0)).toContainText('Lead');
  await expect(rows.nth(1)).toContainText('Closed - won');
  await expect(rows.nth(0).getByTestId('conversion-answer')).toContainText(
    t.hooks.conversions.received.replace('{{n}}', ''),
  );

  for (const lang of LANGS) {
    for (const width of [375, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      const section = await openLead(page, lang, sourcePath);
      await expect(section.getByTestId('conversion-row')).toHaveCount(2);
      await section.scrollIntoViewIfNeeded();
      await expectFits(page, `capi-log-${lang}-${width}`, { fullPage: false });
    }
  }

  // Nothing more came in meanwhile: one event per stage.
  expect((await eventsOf(leadgenId)).map((e) => e.eventName)).toEqual(['Lead', 'Closed - won']);
});
