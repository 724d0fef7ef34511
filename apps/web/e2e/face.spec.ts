// Issue 17 (parts 4, 7, 9): a clean console on load, no serious or critical accessibility
// violations (axe-core) on sign-in, the dashboard, the integrations list and an integration page,
// tab titles in the page's language, the greeting by short login, and the picker with logos,
// search, translated tags, inside a 900 px tall screen.
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { signUpAndConfirm } from './support/actions';
import { LANGS, texts, uniqueLogin } from './support/locales';

const PASSWORD = 'FaceTest2024x';

/** Console warnings and errors from now on (what a developer would see on load). */
function collectConsole(page: Page): string[] {
  const messages: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'warning' || msg.type() === 'error') messages.push(`${msg.type()}: ${msg.text()}`);
  });
  page.on('pageerror', (error) => messages.push(`pageerror: ${error.message}`));
  return messages;
}

async function expectAccessible(page: Page, where: string): Promise<void> {
  // antd animates dialogs and tabs in; check the settled page.
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  const { violations } = await new AxeBuilder({ page }).analyze();
  const bad = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${where}: ${v.id} (${v.impact}) ${v.nodes.map((n) => `${n.target.join(' ')}: ${n.any[0]?.message ?? ''}`).join(', ')}`,
    );
  expect(bad).toEqual([]);
}

for (const lang of LANGS) {
  const t = texts[lang];

  test(`${lang}: a clean console, titles in the language, no serious accessibility violations, the picker`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 1440, height: 900 });
    const consoleMessages = collectConsole(page);

    await page.goto(`${t.prefix}/signin`);
    await expect(page.getByRole('heading', { name: t.auth.signin.title })).toBeVisible();
    await expect(page).toHaveTitle(`${t.pages.titles.signin} — LeadRelay`);
    await expectAccessible(page, 'signin');

    const login = uniqueLogin(`face-${lang}`);
    await signUpAndConfirm(page, lang, login, PASSWORD);
    // The dashboard greets by the short login, not the whole address.
    const shortLogin = login.slice(0, login.indexOf('@'));
    await expect(page.getByRole('heading', { level: 2 }).first()).toHaveText(
      t.dashboard.greeting.replace('{{name}}', shortLogin),
    );
    await expect(page).toHaveTitle(`${t.pages.titles.dashboard} — LeadRelay`);
    await expectAccessible(page, 'dashboard');
    expect(consoleMessages).toEqual([]);

    await page.goto(`${t.prefix}/admin/integrations`);
    await expect(page).toHaveTitle(`${t.pages.titles.integrations} — LeadRelay`);
    await expect(page.getByRole('button', { name: t.integrations.list.new }).first()).toBeVisible();
    await expectAccessible(page, 'integrations list');

    // The picker: a logo on every type, tags in the page's language, search, inside the screen.
    await page.getByRole('button', { name: t.integrations.list.new }).first().click();
    const dialog = page.getByRole('dialog', { name: t.integrations.create.title });
    await expect(dialog).toBeVisible();
    const types = dialog.locator('.lr-picker-type');
    await expect(types.first()).toBeVisible();
    const count = await types.count();
    expect(count).toBeGreaterThan(5);
    await expect(dialog.locator('.lr-picker-type [data-logo]')).toHaveCount(count);
    await expect(dialog.locator('[data-logo="facebook"] svg path')).toHaveCount(1);
    await expect(dialog.getByText(t.integrations.catalogue.tags.ads, { exact: true })).toBeVisible();
    const box = await dialog.boundingBox();
    expect(box && box.y >= 0 && box.y + box.height <= 900).toBe(true);
    await expectAccessible(page, 'picker');

    const search = dialog.getByRole('searchbox', { name: t.integrations.create.search });
    await search.fill('CRM');
    await expect(dialog.locator('.lr-picker-type')).toHaveCount(3);
    await expect(dialog.locator('.lr-picker-type').filter({ hasText: 'Pipedrive' })).toBeVisible();
    await search.fill('zzzz');
    await expect(dialog.getByText(t.integrations.create.nothingFound.replace('{{query}}', 'zzzz'))).toBeVisible();
    await search.fill(t.integrations.catalogue.names.webhook);
    await dialog.locator('label').filter({ hasText: t.integrations.catalogue.names.webhook }).first().click();
    await dialog.getByLabel(t.integrations.create.name).fill('Face form');
    await dialog.getByRole('button', { name: t.integrations.create.submit }).click();
    await expect(page).toHaveURL(new RegExp(`${t.prefix}/admin/integrations/webhook/[0-9a-f-]{36}`));
    await expect(page.getByRole('textbox', { name: t.integrations.webhook.url })).toBeVisible();
    await expectAccessible(page, 'integration page');

    // A client opening /admin/create gets the picker, not a silent redirect.
    await page.goto(`${t.prefix}/admin/create`);
    await expect(page.getByRole('heading', { name: t.integrations.create.title })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`${t.prefix}/admin/create$`));
    await expect(page.locator('.lr-picker-type').first()).toBeVisible();
  });
}
