// Issue 17 (parts 4, 7, 9): a clean console on load, no serious or critical accessibility
// violations (axe-core) on sign-in, the dashboard, the integrations list and an integration page,
// tab titles in the page's language, the greeting by short login, and the picker with logos,
// search, translated tags, inside a 900 px tall screen. On a phone the lead log's tab and every
// session are in sight; on a desktop the dark sidebar runs a long page's whole height.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import enAccount from '../src/locales/en/account.json' with { type: 'json' };
import ukAccount from '../src/locales/uk/account.json' with { type: 'json' };
import { signUp, signUpAndConfirm } from './support/actions';
import { LANGS, texts, uniqueLogin } from './support/locales';
import { settled } from './support/settled';
import { expect, test } from './support/test';
import { UUID, urlIs, urlMatching } from './support/url';

const ACCOUNT = { uk: ukAccount, en: enAccount };

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
    test.setTimeout(180_000);
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
    // Every type has its own logo: a brand's mark or its initials tile, never the generic glyph.
    await expect(dialog.locator('[data-logo="pipedrive"] svg path')).toHaveCount(1);
    await expect(dialog.locator('[data-logo="amocrm"]')).toHaveText('amo');
    await expect(dialog.locator('.lr-picker-type [data-logo] [aria-label="appstore"]')).toHaveCount(0);
    await expect(dialog.getByText(t.integrations.catalogue.tags.ads, { exact: true }).first()).toBeVisible();
    const box = await dialog.boundingBox();
    expect(box && box.y >= 0 && box.y + box.height <= 900).toBe(true);
    await expectAccessible(page, 'picker');

    const search = dialog.getByRole('searchbox', { name: t.integrations.create.search });
    await search.fill('CRM');
    // The CRMs: amoCRM, Pipedrive, Uspacy, Bitrix24 and KeyCRM.
    await expect(dialog.locator('.lr-picker-type')).toHaveCount(5);
    await expect(dialog.locator('.lr-picker-type').filter({ hasText: 'Pipedrive' })).toBeVisible();
    await expect(dialog.locator('.lr-picker-type').filter({ hasText: 'KeyCRM' })).toBeVisible();
    await search.fill('zzzz');
    await expect(dialog.getByText(t.integrations.create.nothingFound.replace('{{query}}', 'zzzz'))).toBeVisible();
    await search.fill(t.integrations.catalogue.names.webhook);
    await dialog.locator('label').filter({ hasText: t.integrations.catalogue.names.webhook }).first().click();
    await dialog.getByLabel(t.integrations.create.name).fill('Face form');
    await dialog.getByRole('button', { name: t.integrations.create.submit }).click();
    await expect(page).toHaveURL(urlMatching(`${t.prefix}/admin/integrations/webhook/${UUID}`));
    await expect(page.getByRole('textbox', { name: t.integrations.webhook.url })).toBeVisible();
    await expectAccessible(page, 'integration page');

    // A client opening /admin/create gets the picker, not a silent redirect.
    await page.goto(`${t.prefix}/admin/create`);
    await expect(page.getByRole('heading', { name: t.integrations.create.title })).toBeVisible();
    await expect(page).toHaveURL(urlIs(`${t.prefix}/admin/create`));
    await expect(page.locator('.lr-picker-type').first()).toBeVisible();
  });
}

for (const lang of LANGS) {
  const t = texts[lang];
  const account = ACCOUNT[lang];

  test(`${lang}: on a phone the lead log's tab and every session are in sight; on a desktop the sidebar runs the page's height`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    const login = uniqueLogin(`face-mobile-${lang}`);
    await signUp(page, lang, login, PASSWORD);
    // A second session, signed in elsewhere, so the list has one that can be ended.
    const other = await page.request.post('/api/auth/login', {
      data: { login, password: PASSWORD },
      headers: {
        'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36',
      },
    });
    expect(other.ok()).toBe(true);

    // A source's page: its four tabs, the lead log among them, with no "⋯" to open.
    await page.goto(`${t.prefix}/admin/create`);
    await page.locator('label').filter({ hasText: t.integrations.catalogue.names.webhook }).first().click();
    await page.getByLabel(t.integrations.create.name).fill('Phone form');
    await page.getByRole('button', { name: t.integrations.create.submit }).click();
    await expect(page).toHaveURL(urlMatching(`${t.prefix}/admin/integrations/webhook/${UUID}`));
    const leadLog = page.getByRole('tab', { name: t.integrations.tabs.leads });
    // The page opens where the picker was scrolled to (no scroll restoration): back to its top.
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(leadLog).toBeInViewport({ ratio: 1 });
    await expect(page.locator('.ant-tabs-nav-operations:visible')).toHaveCount(0);
    await leadLog.click();
    await expect(leadLog).toHaveAttribute('aria-selected', 'true');

    // The sessions: each one whole on the screen, its last activity and IP written out.
    await page.goto(`${t.prefix}/admin/account`);
    await settled(page);
    const cards = page.getByTestId('session-card');
    await expect(cards).toHaveCount(2);
    for (const card of await cards.all()) {
      await card.scrollIntoViewIfNeeded();
      await expect(card).toBeInViewport({ ratio: 1 });
      await expect(card.getByText(account.sessions.lastUsed)).toBeVisible();
      await expect(card.getByText(account.sessions.ip)).toBeVisible();
    }
    await expect(cards.getByRole('button', { name: account.sessions.revoke, exact: true })).toHaveCount(1);
    const sticksOut = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(sticksOut).toBe(false);

    // A desktop: the account page is longer than the screen; the dark column reaches its end
    // and its menu is still in sight there.
    await page.setViewportSize({ width: 1440, height: 700 });
    await expect(page.locator('aside.lr-sider')).toBeVisible();
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    expect(height).toBeGreaterThan(900);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const sider = await page.locator('aside.lr-sider').evaluate((el) => {
      const box = el.getBoundingClientRect();
      return { top: box.top + window.scrollY, bottom: box.bottom + window.scrollY };
    });
    expect(sider.top).toBe(0);
    expect(sider.bottom).toBeGreaterThanOrEqual(height - 1);
    await expect(
      page.locator('aside.lr-sider').getByRole('menuitem', { name: t.layout.menu.dashboard }),
    ).toBeInViewport();
  });
}
