import type { Page } from '@playwright/test';
import enGuardian from '../src/locales/en/guardian.json' with { type: 'json' };
import enSpeed from '../src/locales/en/speed.json' with { type: 'json' };
import ukGuardian from '../src/locales/uk/guardian.json' with { type: 'json' };
import ukSpeed from '../src/locales/uk/speed.json' with { type: 'json' };
import { signUp, sourceWithHttpDestinations } from './support/actions';
import { postLead } from './support/flow';
import { LANGS, texts, uniqueLogin } from './support/locales';
import { expectFits } from './support/screens';
import { expect, test } from './support/test';
import { urlIs } from './support/url';

// Issue 19: the speed-to-lead report and the guardian, in both languages, on a phone and a desktop:
// real leads through a webhook source, one taken from the lead log's API, both screens showing them.
const WIDTHS = [375, 1440];
const strings = { uk: { guardian: ukGuardian, speed: ukSpeed }, en: { guardian: enGuardian, speed: enSpeed } };

/** As the page's user: the first lead of the source is taken from the lead log (the web's button). */
async function takeFirstLead(page: Page, sourceId: string): Promise<void> {
  const status = await page.evaluate(async (id) => {
    const headers = {
      authorization: `Bearer ${localStorage.getItem('sessionToken')}`,
      'content-type': 'application/json',
    };
    const list = await (await fetch(`/api/hook?integrationId=${id}&limit=10`, { headers })).json();
    const res = await fetch(`/api/hook/${list.data[0]._id}/reaction`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ kind: 'taken' }),
    });
    return res.status;
  }, sourceId);
  expect(status).toBe(200);
}

const standInAlerts = (source: string) => [
  {
    _id: 'a1',
    kind: 'drought',
    integration: { _id: source, name: 'Site form', type: 'webhook' },
    connection: null,
    silentSince: new Date(Date.now() - 3 * 3_600_000).toISOString(),
    expected: 12.4,
    expiresAt: null,
    daysAhead: null,
    openedAt: new Date(Date.now() - 3_600_000).toISOString(),
    closedAt: null,
    notifiedAt: new Date(Date.now() - 3_600_000).toISOString(),
  },
  {
    _id: 'a2',
    kind: 'expiry',
    integration: null,
    connection: { _id: 'c1', name: 'Olena Kovalenko' },
    silentSince: null,
    expected: null,
    expiresAt: new Date(Date.now() + 6 * 86_400_000).toISOString(),
    daysAhead: 7,
    openedAt: new Date(Date.now() - 86_400_000).toISOString(),
    closedAt: null,
    notifiedAt: null,
  },
];

for (const lang of LANGS) {
  const t = texts[lang];
  const s = strings[lang];
  test(`${lang}: the speed-to-lead report and the guardian show real leads, at 375 and 1440 px`, async ({ page }) => {
    // The longest test: ten screens, each opened at two widths.
    test.setTimeout(180_000);
    await page.setViewportSize({ width: 1440, height: 900 });
    await signUp(page, lang, uniqueLogin(`guardian-${lang}`), 'Secret123');
    const { source } = await sourceWithHttpDestinations(page, 'Site form', [{ name: 'CRM' }]);
    await page.goto(`${t.prefix}/admin/integrations/webhook/${source}`);
    const hookUrl = await page.getByRole('textbox', { name: t.integrations.webhook.url }).inputValue();
    for (const name of ['Olena Kovalenko', 'Taras Melnyk', 'Iryna Bondar']) {
      await postLead(hookUrl, { name, phone: '067 123 45 67' });
    }
    await takeFirstLead(page, source);

    // Through the sidebar, as a person finds them.
    await page.goto(`${t.prefix}/admin`);
    await page.getByRole('menuitem', { name: t.layout.menu.speed }).click();
    await expect(page).toHaveURL(urlIs(`${t.prefix}/admin/speed`));
    await expect(page.getByRole('heading', { name: s.speed.title, exact: true })).toBeVisible();
    const bySource = page.getByTestId('speed-by-source');
    await expect(bySource.getByRole('row').filter({ hasText: 'Site form' })).toContainText('3');
    await expect(page.getByTestId('speed-summary')).toContainText(s.speed.summary.median);

    await page.getByRole('menuitem', { name: t.layout.menu.guardian }).click();
    await expect(page.getByRole('heading', { name: s.guardian.title, exact: true })).toBeVisible();
    const day = page.getByTestId('guardian-reconciliation').getByRole('row').filter({ hasText: 'Site form' });
    await expect(day.getByRole('cell').nth(2)).toHaveText('3');
    await expect(page.getByTestId('guardian-history')).toContainText(s.guardian.history.empty);
    await page.getByRole('switch', { name: s.guardian.settings.weekly }).click();
    await expect(page.getByText(s.guardian.settings.saved)).toBeVisible();
    await page.reload();
    await expect(page.getByRole('switch', { name: s.guardian.settings.weekly })).toHaveAttribute(
      'aria-checked',
      'false',
    );

    // A history to look at: a drought needs four weeks of leads and an ending access a real
    // Facebook token, which a screen test cannot wait for (the API tests make both, modules/guardian).
    await page.route(
      (url) => url.pathname === '/api/guardian/alerts',
      (route) => route.fulfill({ json: standInAlerts(source) }),
    );
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width < 768 ? 812 : 900 });
      await page.goto(`${t.prefix}/admin/speed`);
      await expect(page.getByTestId('speed-by-manager')).toBeVisible();
      await expect(page.getByTestId('speed-time-chart').getByRole('application')).toBeVisible();
      await expectFits(page, `speed-${lang}-${width}`);
      await page.goto(`${t.prefix}/admin/guardian`);
      // A table at 1440; on a phone a card per day and source, its figures in sight.
      const today = page
        .getByTestId('guardian-reconciliation')
        .getByRole(width < 768 ? 'listitem' : 'row')
        .filter({ hasText: 'Site form' });
      await expect(today).toBeVisible();
      if (width < 768) await expect(today.getByRole('definition').first()).toHaveText('3');
      await expect(page.getByTestId('guardian-alert')).toHaveCount(2);
      // No Telegram bot in this account: the card says to connect one first.
      await expect(page.getByTestId('guardian-telegram-no-bot')).toContainText(s.guardian.telegram.noBot);
      await expectFits(page, `guardian-${lang}-${width}`);
    }

    // The owner's Telegram with a bot connected: a one-time link, then linked. The bot's own
    // screens and /start run through the emulator in the API tests (modules/guardian/owner-telegram.test.ts).
    const bot = { integrationId: 'tg1', botUsername: 'acme_leads_bot' };
    let linked = false;
    await page.route(
      (url) => url.pathname === '/api/guardian/telegram',
      (route) =>
        route.fulfill({
          json: {
            linked: linked
              ? { username: 'olena_owner', linkedAt: new Date().toISOString(), integrationId: 'tg1' }
              : null,
            bot,
          },
        }),
    );
    await page.route(
      (url) => url.pathname === '/api/guardian/telegram/link-code',
      (route) =>
        route.fulfill({
          status: 201,
          json: {
            code: 'AbCdEfGhIjKlMnOpQrSt',
            url: 'https://t.me/acme_leads_bot?start=AbCdEfGhIjKlMnOpQrSt',
            botUsername: 'acme_leads_bot',
            expiresAt: new Date(Date.now() + 15 * 60_000).toISOString(),
          },
        }),
    );
    for (const width of WIDTHS) {
      linked = false;
      await page.setViewportSize({ width, height: width < 768 ? 812 : 900 });
      await page.goto(`${t.prefix}/admin/guardian`);
      const card = page.getByTestId('guardian-telegram');
      await card.getByRole('button', { name: s.guardian.telegram.link }).click();
      await expect(card.getByTestId('guardian-telegram-code')).toContainText('/start AbCdEfGhIjKlMnOpQrSt');
      // Back to the top: a full-page shot of a scrolled page draws the fixed header mid-page.
      await page.evaluate(() => window.scrollTo(0, 0));
      await expectFits(page, `guardian-telegram-code-${lang}-${width}`);
      linked = true;
      await card.getByRole('button', { name: s.guardian.telegram.done }).click();
      await expect(card.getByTestId('guardian-telegram-linked')).toHaveText('@olena_owner');
      await page.evaluate(() => window.scrollTo(0, 0));
      await expectFits(page, `guardian-telegram-linked-${lang}-${width}`);
    }
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width < 768 ? 812 : 900 });
      await page.goto(`${t.prefix}/admin`);
      await expect(page.getByTestId('speed-card')).toBeVisible();
      await expectFits(page, `admin-speed-card-${lang}-${width}`);
    }
  });
}
