import { type HttpEmulator, startHttpEmulator } from '@leadrelay/connectors/http/emulator';
import type { Locator, Page } from '@playwright/test';
import { baseURL } from '../playwright.config';
import { createInDialog, signUp } from './support/actions';
import { texts, uniqueLogin } from './support/locales';
import { expect, test } from './support/test';
import { UUID, urlMatching } from './support/url';

// Issue 4's end-to-end check against the Graph emulator (EMULATORS=true in the e2e server):
// connect Facebook, subscribe a page, make an integration of one of its lead forms sending to the
// user's server; a person submits the form (the emulator's control API), Meta's signed webhook
// arrives, and the lead shows up live on the dashboard and reaches the server once.
const t = texts.en;
const i = t.integrations;
// HTTP webhook's own words (its connector's folder).
const h = t.http.settings;
const fb = t.facebook;

let receiver: HttpEmulator;
let graphUrl: string;
test.beforeAll(async ({ request }) => {
  receiver = await startHttpEmulator({ host: '127.0.0.1' });
  graphUrl = (await (await request.get(`${baseURL}/api/emulators`)).json()).facebook.url;
});
test.afterAll(async () => {
  await receiver?.close();
});

const counter = (page: Page, key: 'delivered' | 'failed'): Locator =>
  page.getByTestId(`counter-${key}`).locator('.ant-statistic-content-value');

test('a Meta lead form lead reaches the destination once and appears live', async ({ page }) => {
  await signUp(page, 'en', uniqueLogin('fb'), 'Secret123');

  // Facebook Login (the emulator's dialog) brings the browser back connected.
  await page.goto(`${t.prefix}/admin/integrations/facebook`);
  await page.getByRole('button', { name: fb.connect.button }).first().click();
  await expect(page).toHaveURL(urlMatching('/en/admin/integrations/facebook(\\?.*)?'), { timeout: 15_000 });
  await expect(page.getByText('Kyiv Dental Studio').first()).toBeVisible();

  await page.getByRole('switch', { name: fb.pages.subscribeFor.replace('{{name}}', 'Kyiv Dental Studio') }).click();
  await expect(page.getByText(fb.pages.subscribed)).toBeVisible();

  await page.getByRole('button', { name: fb.pages.forms }).first().click();
  await page.getByRole('button', { name: fb.forms.createFor.replace('{{name}}', 'Free consultation') }).click();
  await expect(page).toHaveURL(urlMatching(`/en/admin/integrations/facebook/${UUID}`));

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
  const submitted = await fetch(`${graphUrl}/__emulator/submit-lead`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      formId: '30000000000001',
      fieldData: [
        { name: 'full_name', values: ['Ivan Franko'] },
        { name: 'email', values: ['ivan.franko@example.com'] },
        { name: 'phone_number', values: ['+380671112233'] },
      ],
    }),
  });
  expect(submitted.status).toBe(200);

  await expect(counter(page, 'delivered')).toHaveText('1', { timeout: 15_000 });
  await expect(page.getByTestId('hook-row').first()).toContainText('Ivan Franko');
  const sent = receiver.requests.filter((r) => r.rawBody.includes('Ivan Franko'));
  expect(sent).toHaveLength(1);
  expect(sent[0]?.body).toMatchObject({
    lead: { name: 'Ivan Franko', email: 'ivan.franko@example.com', phone: '+380671112233' },
  });
});
