import { type HttpEmulator, startHttpEmulator } from '@leadrelay/connectors/http/emulator';
import type { Locator, Page } from '@playwright/test';
import enTiktok from '../../../packages/connectors/src/tiktok/words/en.json' with { type: 'json' };
import ukTiktok from '../../../packages/connectors/src/tiktok/words/uk.json' with { type: 'json' };
import { baseURL } from '../playwright.config';
import { createInDialog, signUp } from './support/actions';
import { type Lang, texts, uniqueLogin } from './support/locales';
import { expectFits } from './support/screens';
import { expect, test } from './support/test';
import { UUID, urlMatching } from './support/url';

// Issue 32's end-to-end check of TikTok lead forms against the TikTok emulator (EMULATORS=true in the
// e2e server): from TikTok's own screen, connect TikTok for Business, turn leads on for an ad account,
// make an integration of one of its Instant Forms sending to the user's server; a person submits the
// form (the emulator's control API), TikTok's signed webhook arrives, and the lead reaches the server
// once and shows on the dashboard.
const TT = { uk: ukTiktok, en: enTiktok } as const;
const DENTAL = 'Kyiv Dental Studio Ads';
const CONSULTATION = '7100000000000000001';

let receiver: HttpEmulator;
let tiktokUrl: string;
test.beforeAll(async ({ request }) => {
  receiver = await startHttpEmulator({ host: '127.0.0.1' });
  tiktokUrl = (await (await request.get(`${baseURL}/api/emulators`)).json()).tiktok.url;
});
test.afterAll(async () => {
  await receiver?.close();
});

const counter = (page: Page, key: 'delivered' | 'failed'): Locator =>
  page.getByTestId(`counter-${key}`).locator('.ant-statistic-content-value');

/** TikTok's screen: connect (the emulator's consent grants at once) and turn leads on for the dental ad account. */
async function connectAndSubscribe(page: Page, lang: Lang): Promise<void> {
  const t = texts[lang];
  const tt = TT[lang];
  await page.goto(`${t.prefix}/admin/integrations/tiktok`);
  await expect(page.getByText(tt.empty.title)).toBeVisible();
  await page.getByRole('button', { name: tt.connect.button }).first().click();
  await expect(page).toHaveURL(urlMatching(`${t.prefix}/admin/integrations/tiktok(\\?.*)?`), { timeout: 15_000 });
  await expect(page.getByText(DENTAL).first()).toBeVisible();
  await page.getByRole('switch', { name: tt.pages.subscribeFor.replace('{{name}}', DENTAL) }).click();
  await expect(page.getByText(tt.pages.subscribed)).toBeVisible();
}

async function submitLead(answers: Record<string, string>): Promise<string> {
  const res = await fetch(`${tiktokUrl}/__emulator/submit-lead`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ formId: CONSULTATION, answers }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { leadId: string }).leadId;
}

test('a TikTok Instant Form lead reaches the destination once and appears live', async ({ page }) => {
  const t = texts.en;
  const i = t.integrations;
  const h = t.http.settings;
  const tt = TT.en;
  await signUp(page, 'en', uniqueLogin('tt'), 'Secret123');
  await connectAndSubscribe(page, 'en');

  // The ad account's Instant Forms, with their fields; an integration of one of them.
  await page.getByRole('button', { name: tt.pages.forms }).first().click();
  await expect(page.getByText('Book a cleaning')).toBeVisible();
  await page.getByRole('button', { name: tt.forms.createFor.replace('{{name}}', 'Free consultation') }).click();
  await expect(page).toHaveURL(urlMatching(`/en/admin/integrations/tiktok/${UUID}`));

  // The user's server as the destination.
  await page.getByRole('tab', { name: /Destinations/ }).click();
  await page.getByRole('button', { name: i.destinations.createHttp }).click();
  await createInDialog(page, 'HTTP', 'Our CRM endpoint');
  await page.getByTestId('destination-row').getByRole('link', { name: 'Our CRM endpoint' }).click();
  await page.getByLabel(h.url).fill(receiver.hookUrl);
  await page.getByRole('button', { name: h.save }).click();
  await expect(page.getByText(h.checkOk)).toBeVisible();

  // The dashboard is open when the person submits the form.
  await page.goto(`${t.prefix}/admin`);
  await expect(counter(page, 'delivered')).toHaveText('0');
  const leadId = await submitLead({
    name: 'Ivan Franko',
    phone_number: '+380671112233',
    email: 'ivan.franko@example.com',
    preferred_clinic: 'Podil',
  });

  await expect(counter(page, 'delivered')).toHaveText('1', { timeout: 15_000 });
  await expect(page.getByTestId('hook-row').first()).toContainText('Ivan Franko');
  const sent = receiver.requests.filter((r) => r.rawBody.includes('Ivan Franko'));
  expect(sent).toHaveLength(1);
  expect(sent[0]?.body).toMatchObject({
    lead: { name: 'Ivan Franko', email: 'ivan.franko@example.com', phone: '+380671112233' },
  });
  expect(sent[0]?.rawBody).toContain(leadId);
});

for (const lang of ['uk', 'en'] as const) {
  test(`TikTok's screens fit a phone and a desktop (${lang})`, async ({ page }) => {
    const tt = TT[lang];
    await signUp(page, lang, uniqueLogin(`tt-${lang}`), 'Secret123');
    for (const width of [1440, 375]) {
      await page.setViewportSize({ width, height: width === 375 ? 800 : 900 });
      if (width === 1440) {
        await page.goto(`${texts[lang].prefix}/admin/integrations/tiktok`);
        await expectFits(page, `tiktok-empty-${lang}-${width}`);
        await connectAndSubscribe(page, lang);
      } else {
        await page.goto(`${texts[lang].prefix}/admin/integrations/tiktok`);
        await expect(page.getByText(DENTAL).first()).toBeVisible();
      }
      await page.getByRole('button', { name: tt.pages.forms }).first().click();
      await expect(page.getByText('Free consultation').first()).toBeVisible();
      await expectFits(page, `tiktok-connections-${lang}-${width}`);
    }
    await page.getByRole('button', { name: tt.forms.createFor.replace('{{name}}', 'Free consultation') }).click();
    await expect(page).toHaveURL(urlMatching(`${texts[lang].prefix}/admin/integrations/tiktok/${UUID}`));
    await expect(page.getByText(tt.source.title).first()).toBeVisible();
    await expectFits(page, `tiktok-integration-${lang}-375`);
    await page.setViewportSize({ width: 1440, height: 900 });
    await expectFits(page, `tiktok-integration-${lang}-1440`);

    // The integrations list of the type lists it.
    await page.goto(`${texts[lang].prefix}/admin/integrations/tiktok-forms`);
    await expect(page.getByText(tt.list.title).first()).toBeVisible();
    await expect(page.getByText(`${DENTAL} — Free consultation`).first()).toBeVisible();
    await expectFits(page, `tiktok-list-${lang}-1440`);
    await page.setViewportSize({ width: 375, height: 800 });
    await expectFits(page, `tiktok-list-${lang}-375`);
  });
}
