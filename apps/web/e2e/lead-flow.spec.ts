import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { type HttpEmulator, startHttpEmulator } from '@leadrelay/connectors/http/emulator';
import type { Locator, Page } from '@playwright/test';
import { createInDialog, signUp } from './support/actions';
import { texts, uniqueLogin } from './support/locales';
import { forPicture, SCREENS_DIR } from './support/screens';
import { expect, test } from './support/test';
import { UUID, urlMatching } from './support/url';

// The product's promise in one test: a website form posts a lead (curl stands in for it), the
// lead reaches the user's own server (the http emulator) once, and the dashboard and the
// integration's lead log show it without a reload.
const run = promisify(execFile);
const t = texts.en;
const i = t.integrations;
// HTTP webhook's own words (its connector's folder).
const h = t.http.settings;

let emulator: HttpEmulator;
test.beforeAll(async () => {
  emulator = await startHttpEmulator({ host: '127.0.0.1' });
});
test.afterAll(async () => {
  await emulator?.close();
});

const counter = (page: Page, key: 'delivered' | 'failed' | 'pending'): Locator =>
  page.getByTestId(`counter-${key}`).locator('.ant-statistic-content-value');

test('a lead posted to the webhook URL reaches the destination once and appears live', async ({ page }) => {
  await signUp(page, 'en', uniqueLogin('flow'), 'Secret123');

  // A webhook source.
  await page.goto(`${t.prefix}/admin/integrations`);
  await page.getByRole('button', { name: i.list.new }).first().click();
  await createInDialog(page, 'Webhook', 'Home page form');
  await expect(page).toHaveURL(urlMatching(`/en/admin/integrations/webhook/${UUID}`));
  const sourcePath = new URL(page.url()).pathname;
  const hookUrl = await page.getByRole('textbox', { name: i.webhook.url }).inputValue();
  expect(hookUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/hooks\/in\/.+/);

  // An http destination pointing at "the user's server", added to the source.
  await page.getByRole('tab', { name: /Destinations/ }).click();
  await page.getByRole('button', { name: i.destinations.createHttp }).click();
  await createInDialog(page, 'HTTP', 'Our CRM endpoint');
  const row = page.getByTestId('destination-row').filter({ hasText: 'Our CRM endpoint' });
  await expect(row).toBeVisible();
  await row.getByRole('link', { name: 'Our CRM endpoint' }).click();
  await page.getByLabel(h.url).fill(emulator.hookUrl);
  await page.getByRole('button', { name: h.save }).click();
  await expect(page.getByText(h.checkOk)).toBeVisible();

  // The dashboard is open when the lead arrives.
  await page.goto(`${t.prefix}/admin`);
  await expect(counter(page, 'delivered')).toHaveText('0');
  await expect(page.getByText(t.dashboard.live.live, { exact: true })).toBeVisible();

  const lead = {
    name: 'Olena Kovalenko',
    phone: '067 123 45 67',
    email: 'olena@example.com',
    utm_source: 'facebook',
    message: 'Call me after 6 pm',
  };
  const { stdout } = await run('curl', [
    '-sS',
    '--fail-with-body',
    '-H',
    'Content-Type: application/json',
    '--data',
    JSON.stringify(lead),
    hookUrl,
  ]);
  expect(JSON.parse(stdout)).toMatchObject({ ok: true, status: 'pending' });

  // Live: no reload between the curl and these checks.
  await expect(counter(page, 'delivered')).toHaveText('1', { timeout: 15_000 });
  await expect(counter(page, 'failed')).toHaveText('0');
  await expect(page.getByTestId('hook-row').first()).toContainText('Olena Kovalenko');
  await forPicture(() => page.screenshot({ path: `${SCREENS_DIR}lead-flow-dashboard.png`, fullPage: true }));

  // Exactly one record at the destination, with the lead normalised (phone in E.164).
  const received = emulator.requests.filter((r) => r.rawBody.includes('Olena Kovalenko'));
  expect(received).toHaveLength(1);
  expect(received[0]?.body).toMatchObject({
    lead: { name: 'Olena Kovalenko', phone: '+380671234567', email: 'olena@example.com' },
  });

  // The integration's lead log shows the delivery to that destination.
  await page.goto(`${sourcePath}?tab=leads`);
  const hook = page.getByTestId('hook-row').filter({ hasText: 'Olena Kovalenko' });
  await expect(hook).toBeVisible();
  await expect(hook.getByTestId('delivery-chip')).toContainText('Our CRM endpoint');
});
