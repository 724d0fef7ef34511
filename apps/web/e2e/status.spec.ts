import { type HttpEmulator, startHttpEmulator } from '@leadrelay/connectors/http/emulator';
import type { Page } from '@playwright/test';
import { createInDialog, signUp } from './support/actions';
import { texts, uniqueLogin } from './support/locales';
import { expect, test } from './support/test';
import { UUID, urlMatching } from './support/url';

// Issue 17: one status per integration that every screen agrees on, and a destination's URL that
// is stored by its save button.
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

/** A webhook source with a new http destination; ends on the destination's page. */
async function sourceWithHttpDestination(page: Page, name: string): Promise<string> {
  await page.goto(`${t.prefix}/admin/integrations`);
  await page.getByRole('button', { name: i.list.new }).first().click();
  await createInDialog(page, 'Webhook', 'Site form');
  await expect(page).toHaveURL(urlMatching(`/en/admin/integrations/webhook/${UUID}`));
  await page.getByRole('tab', { name: /Destinations/ }).click();
  await page.getByRole('button', { name: i.destinations.createHttp }).click();
  await createInDialog(page, 'HTTP', name);
  const row = page.getByTestId('destination-row').filter({ hasText: name });
  // A destination without its URL is not "Working" beside a "set the URL" hint: it is not configured.
  await expect(row.locator('[data-state]')).toHaveAttribute('data-state', 'not_configured');
  await expect(row).toContainText(i.state.notConfigured);
  await expect(row).not.toContainText(i.state.working);
  await row.getByRole('link', { name }).click();
  await expect(page).toHaveURL(urlMatching(`/en/admin/integrations/http/${UUID}`));
  return new URL(page.url()).pathname;
}

const headerState = (page: Page) => page.locator('.lr-int-subtitle [data-state]');

test('a destination URL survives its save and a reload', async ({ page }) => {
  await signUp(page, 'en', uniqueLogin('status-url'), 'Secret123');
  await sourceWithHttpDestination(page, 'Our endpoint');
  await expect(headerState(page)).toHaveAttribute('data-state', 'not_configured');

  // The page's first save button is the address card's, and it stores the URL.
  await page.getByRole('textbox', { name: h.url, exact: true }).fill(emulator.hookUrl);
  const saves = page.getByRole('button', { name: /^Save/ });
  await expect(saves.first()).toHaveText(h.save);
  await saves.first().click();
  await expect(page.getByText(h.checkOk, { exact: true })).toBeVisible();
  await expect(headerState(page)).toHaveAttribute('data-state', 'working');

  await page.reload();
  await expect(page.getByRole('textbox', { name: h.url, exact: true })).toHaveValue(emulator.hookUrl);
  await expect(headerState(page)).toHaveAttribute('data-state', 'working');
  await expect(headerState(page)).toHaveText(i.state.working);
});

test('a broken destination shows the same status on the list, its page and the dashboard', async ({ page }) => {
  await signUp(page, 'en', uniqueLogin('status-broken'), 'Secret123');
  const path = await sourceWithHttpDestination(page, 'Dead endpoint');

  // Nothing listens on the discard port: the check fails and marks the destination broken.
  await page.getByRole('textbox', { name: h.url, exact: true }).fill('http://127.0.0.1:9/leads');
  await page.getByRole('button', { name: h.save }).click();
  await expect(page.getByText(h.checkFailed, { exact: true })).toBeVisible();
  await expect(headerState(page)).toHaveAttribute('data-state', 'broken_other');
  const label = i.state.brokenOther;
  await expect(headerState(page)).toHaveText(label);
  await expect(page.getByTestId('state-alert')).toContainText(i.reasons.NETWORK);

  await page.goto(`${t.prefix}/admin/integrations`);
  // The source's row names the destination too: the row is the one whose link is the destination.
  const listed = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'Dead endpoint', exact: true }) });
  await expect(listed.locator('[data-state]')).toHaveAttribute('data-state', 'broken_other');
  await expect(listed.locator('.lr-state-tag')).toHaveText(label);
  // Its source is not "Working" either: it names the destination that fails.
  const source = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'Site form', exact: true }) });
  await expect(source.locator('[data-state]')).toHaveAttribute('data-state', 'broken_other');
  await expect(source).toContainText('Dead endpoint');

  await page.goto(`${t.prefix}/admin`);
  const health = page
    .getByTestId('health-row')
    .filter({ has: page.getByRole('link', { name: 'Dead endpoint', exact: true }) });
  await expect(health.locator('[data-state]')).toHaveAttribute('data-state', 'broken_other');
  await expect(health.locator('.lr-state-tag')).toHaveText(label);

  await page.goto(path);
  await expect(headerState(page)).toHaveText(label);
});
