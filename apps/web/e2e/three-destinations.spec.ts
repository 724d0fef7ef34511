import type { Page } from '@playwright/test';
import { baseURL } from '../playwright.config';
import { signUp } from './support/actions';
import { pick, postLead } from './support/flow';
import { texts, uniqueLogin } from './support/locales';
import { expect, test } from './support/test';
import { UUID, urlMatching } from './support/url';

// Issue 14's end to end: one lead from a website's webhook reaches Uspacy, AlphaSMS and GA4 in one
// go, each connected from its own screen to its emulator, and its lead log shows three delivered
// destinations.
const t = texts.en;
const i = t.integrations;

interface Emulators {
  uspacy: { url: string; email: string; password: string };
  alfasms: { url: string; apiKey: string; senders: string[] };
  ga: { url: string; measurementId: string; apiSecret: string };
}
let emulators: Emulators;
test.beforeAll(async ({ request }) => {
  emulators = await (await request.get(`${baseURL}/api/emulators`)).json();
});

/** The list page's "Connect …" → name → the new integration's own page. */
async function connectNew(page: Page, type: 'alfasms' | 'ga', label: string, name: string) {
  await page.goto(`${t.prefix}/admin/integrations/${type}`);
  await page.getByRole('button', { name: label }).first().click();
  const dialog = page.getByRole('dialog', { name: label });
  await expect(page.locator('.ant-zoom-appear, .ant-zoom-enter')).toHaveCount(0);
  await dialog.getByLabel(i.create.name).fill(name);
  await dialog.getByRole('button', { name: i.create.submit }).click();
  await expect(page).toHaveURL(urlMatching(`/en/admin/integrations/${type}/${UUID}`));
}

test('one website lead reaches Uspacy, AlphaSMS and GA4 at once; its lead log shows three delivered destinations', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const c = t.crm;
  await signUp(page, 'en', uniqueLogin('three'), 'Secret123');

  // Uspacy, signing in with the account.
  await page.goto(`${t.prefix}/admin/integrations/uspacy`);
  await page.getByRole('button', { name: t.uspacy.list.connect }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(c.create.name).fill('Sales Uspacy');
  await dialog.getByText(t.uspacy.modes.password, { exact: true }).click();
  await dialog.getByLabel(t.uspacy.connect.portal).fill(emulators.uspacy.url);
  await dialog.getByLabel(t.uspacy.connect.email).fill(emulators.uspacy.email);
  await dialog.getByLabel(t.uspacy.connect.password, { exact: true }).fill(emulators.uspacy.password);
  await dialog.getByRole('button', { name: c.create.saveToken, exact: true }).click();
  await expect(page).toHaveURL(urlMatching(`/en/admin/integrations/uspacy/${UUID}`), { timeout: 15_000 });
  await expect(page.getByText(c.connection.connected, { exact: true }).first()).toBeVisible();

  // AlphaSMS: the key, the alpha-name, no quiet hours (the test may run at night).
  const s = t.sms;
  await connectNew(page, 'alfasms', s.list.connect, 'Shop SMS');
  await page.getByLabel(s.connection.apiKey).fill(emulators.alfasms.apiKey);
  await page.getByRole('button', { name: s.connection.save }).click();
  await expect(page.getByText(s.connection.checkOk)).toBeVisible();
  await page.getByRole('tab', { name: s.tabs.messages }).click();
  await page.getByLabel(s.settings.sender).fill(emulators.alfasms.senders[0]!);
  await page.getByRole('switch', { name: s.settings.quietHours }).click();
  // The connection's own "Saved" must be gone, so the one below is this save's.
  await expect(page.locator('.ant-message-notice')).toHaveCount(0, { timeout: 10_000 });
  await page.getByRole('button', { name: s.settings.save, exact: true }).click();
  await expect(page.locator('.ant-message').getByText(t.common.saved)).toBeVisible();

  // GA4: the stream's measurement id and API secret.
  const g = t.ga;
  await connectNew(page, 'ga', g.list.connect, 'Site GA4');
  await page.getByLabel(g.connection.measurementId).fill(emulators.ga.measurementId);
  await page.getByLabel(g.connection.apiSecret).fill(emulators.ga.apiSecret);
  await page.getByRole('button', { name: g.connection.save }).click();
  await expect(page.getByText(g.connection.checkOk)).toBeVisible();

  // One webhook source sending to all three.
  await page.goto(`${t.prefix}/admin/integrations`);
  await page.getByRole('button', { name: i.list.new }).first().click();
  const create = page.getByRole('dialog', { name: i.create.title });
  await create.locator('label').filter({ hasText: 'Webhook' }).first().click();
  await create.getByLabel(i.create.name).fill('Site form');
  await create.getByRole('button', { name: i.create.submit }).click();
  await expect(page).toHaveURL(urlMatching(`/en/admin/integrations/webhook/${UUID}`));
  const sourcePath = new URL(page.url()).pathname;
  const hookUrl = await page.getByRole('textbox', { name: i.webhook.url }).inputValue();
  await page.getByRole('tab', { name: /Destinations/ }).click();
  for (const name of ['Sales Uspacy', 'Shop SMS', 'Site GA4']) {
    await pick(page, i.destinations.pick, name);
    await page.getByRole('button', { name: i.destinations.add, exact: true }).click();
    await expect(page.getByTestId('destination-row').filter({ hasText: name })).toBeVisible();
  }

  await postLead(hookUrl, { name: 'Marta Shevchenko', phone: '067 555 44 33', email: 'marta@example.com' });

  await page.goto(`${sourcePath}?tab=leads`);
  const hook = page.getByTestId('hook-row').filter({ hasText: 'Marta Shevchenko' });
  await expect(hook).toBeVisible({ timeout: 20_000 });
  const chips = hook.getByTestId('delivery-chip');
  await expect(chips).toHaveCount(3);
  for (const name of ['Sales Uspacy', 'Shop SMS', 'Site GA4']) {
    await expect(chips.filter({ hasText: name })).toHaveAttribute('data-status', 'delivered', { timeout: 20_000 });
  }
});
