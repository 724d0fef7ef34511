import type { Page } from '@playwright/test';
import { signInByApi, signUp, sourceWithHttpDestinations } from './support/actions';
import { LANGS, texts, uniqueLogin } from './support/locales';
import { OWNER } from './support/owner';
import { PROM_SAMPLE, sendMail } from './support/parsers';
import { expectFits, forPicture } from './support/screens';
import { expect, test } from './support/test';
import { UUID, urlMatching } from './support/url';

// The main screens fit a phone (375 px) and a desktop (1440 px) in both languages: nothing
// sticks out sideways or is cut off at the screen's side. With SCREENS=1 (`npm run screens`) each
// screen is also saved to test-results/screens/ for a person to look at.
const WIDTHS = [375, 1440];

const DAY = 86_400_000;
const isoDay = (ago: number) => new Date(Date.now() - ago * DAY).toISOString().slice(0, 10);

/**
 * The account and its hooks calls when its plan expired two days ago and its leads have been held
 * since, as the server answers them (docs/adr/008-held-leads.md). Stand-ins: an account is held only once its
 * plan has expired or a month's limit is used up, which a screen test cannot wait for; the API
 * tests (modules/holds) hold and release real leads.
 */
async function heldAccountCalls(page: Page) {
  const held = (i: number) => ({
    _id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    integrationId: 'src',
    integration: { _id: 'src', name: 'Site form', type: 'webhook' },
    leadId: `lead-${i}`,
    status: i < 4 ? 'held' : 'delivered',
    reason: i < 4 ? 'plan_expired' : null,
    lead: {
      name: ['Olena Kovalenko', 'Taras Melnyk', 'Iryna Bondar', 'Petro Shevchuk', 'Anna Lysenko'][i],
      phone: `+38067123456${i}`,
      custom: {},
    },
    request: { method: 'POST', headers: {}, body: {} },
    deliveries: [
      {
        _id: `d-${i}`,
        destination: { _id: 'crm', name: 'Main CRM', type: 'http' },
        status: i < 4 ? 'held' : 'delivered',
        attempts: i < 4 ? 0 : 1,
        lastError: null,
        nextAttemptAt: null,
        deliveredAt: i < 4 ? null : new Date(Date.now() - 3 * DAY).toISOString(),
        externalId: null,
      },
    ],
    createdAt: new Date(Date.now() - (i + 1) * 3_600_000 - (i < 4 ? 0 : 2 * DAY)).toISOString(),
    updatedAt: new Date(Date.now() - (i + 1) * 3_600_000).toISOString(),
  });
  const day = (ago: number, delivered: number, heldCount: number) => ({
    _id: isoDay(ago),
    date: isoDay(ago),
    received: delivered + heldCount,
    delivered,
    failed: 0,
    pending: 0,
    filtered: 0,
    duplicate: 0,
    held: heldCount,
  });
  const json = (body: unknown) => ({ status: 200, contentType: 'application/json', body: JSON.stringify(body) });
  const path = (p: string) => (url: URL) => url.pathname === p;
  // The account itself, as the server answers it, with the demo over two days ago.
  await page.route(path('/api/auth/me'), async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...(await response.json()), expDate: isoDay(2) } });
  });
  await page.route(path('/api/integrations'), (route) => route.fulfill(json({ data: [], total: 2, filter: {} })));
  await page.route(path('/api/hook/total'), (route) =>
    route.fulfill(
      json({
        total: 1312,
        delivered: 1270,
        failed: 3,
        pending: 0,
        filtered: 12,
        duplicate: 1,
        held: 26,
        hold: {
          reason: 'plan_expired',
          oldestAt: new Date(Date.now() - 2 * DAY).toISOString(),
          dropsAt: new Date(Date.now() + 28 * DAY).toISOString(),
        },
      }),
    ),
  );
  await page.route(path('/api/legacy/api/admin/statistic'), (route) =>
    route.fulfill(
      json({ data: [day(0, 0, 14), day(1, 0, 12), day(2, 41, 0), day(3, 38, 0)], limit: 14, page: 1, total: 4 }),
    ),
  );
  await page.route(path('/api/hook'), (route) => route.fulfill(json({ data: [0, 1, 2, 3, 4].map(held), total: 26 })));
}

/** The SMS log as the server answers it for a day of leads (a screen test cannot wait for statuses). */
function smsLogCalls(page: Page, integrationId: string) {
  const at = (min: number) => new Date(Date.now() - min * 60_000).toISOString();
  const row = (i: number, recipient: 'lead' | 'manager', status: string, text: string, parts: number) => ({
    _id: `m-${i}`,
    integration: { _id: integrationId, name: 'AlphaSMS' },
    hookId: null,
    leadId: null,
    recipient,
    phone: recipient === 'lead' ? `38050123456${i}` : '380671112233',
    channel: i === 2 ? 'viber+sms' : 'sms',
    text,
    msgId: String(100000001 + i),
    parts,
    status,
    providerStatus: status.toUpperCase(),
    cost: parts * 1.35,
    createdAt: at(i * 37),
    updatedAt: at(i * 37 - 1),
  });
  const data = [
    row(1, 'lead', 'delivered', 'Олена, дякуємо за заявку! Ми зателефонуємо вам найближчим часом.', 1),
    row(
      2,
      'lead',
      'read',
      'Тарасе, дякуємо за заявку! Менеджер уже готує для вас пропозицію щодо весняної знижки на всі курси.',
      2,
    ),
    row(3, 'manager', 'sent', 'Нова заявка: Ірина, +380931234567', 1),
    row(4, 'lead', 'undelivered', 'Petro, thank you for your request! We will call you shortly.', 1),
  ];
  return page.route(
    (url) => url.pathname === `/api/integrations/${integrationId}/records/sms`,
    (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ data, total: 4 }) }),
  );
}

for (const lang of LANGS) {
  const t = texts[lang];
  for (const width of WIDTHS) {
    test(`${lang} at ${width}px: sign-in, sign-up, dashboard, account, integrations, collections and plan fit the screen`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: width < 768 ? 812 : 900 });
      await page.goto(`${t.prefix}/signin`);
      await expect(page.getByRole('heading', { name: t.auth.signin.title })).toBeVisible();
      await expectFits(page, `signin-${lang}-${width}`);

      await page.goto(`${t.prefix}/signup`);
      await expect(page.getByRole('heading', { name: t.auth.signup.title })).toBeVisible();
      await expectFits(page, `signup-${lang}-${width}`);

      await signUp(page, lang, uniqueLogin(`screens-${lang}-${width}`), 'Secret123');
      await expect(page.getByText(t.dashboard.status.title)).toBeVisible();
      await expectFits(page, `admin-${lang}-${width}`);

      await page.goto(`${t.prefix}/admin/account`);
      await expect(page.locator('#name')).toBeVisible();
      await expectFits(page, `account-${lang}-${width}`);

      await page.goto(`${t.prefix}/admin/integrations`);
      await expect(page.getByRole('heading', { name: t.integrations.list.title, exact: true })).toBeVisible();
      await expectFits(page, `integrations-${lang}-${width}`);

      // The CRM list pages (amoCRM, Pipedrive, Uspacy) with their "Connect …" action.
      const crmNames = { amocrm: 'amoCRM', pipedrive: 'Pipedrive', uspacy: 'Uspacy' } as const;
      for (const crm of ['amocrm', 'pipedrive', 'uspacy'] as const) {
        await page.goto(`${t.prefix}/admin/integrations/${crm}`);
        await expect(page.getByRole('heading', { name: crmNames[crm], exact: true })).toBeVisible();
        await expectFits(page, `${crm}-${lang}-${width}`);
      }

      await page.goto(`${t.prefix}/admin/collections`);
      await expect(page.getByRole('heading', { name: t.collections.title, exact: true })).toBeVisible();
      await expectFits(page, `collections-${lang}-${width}`);

      await page.goto(`${t.prefix}/admin/plan`);
      await expect(page.getByRole('heading', { name: t.plans.page.title, exact: true })).toBeVisible();
      await expect(page.getByTestId('usage-leadsPerMonth')).toBeVisible();
      await expectFits(page, `plan-${lang}-${width}`);
      // Annual prices in hryvnias: the longest figures the cards show.
      await page.getByText(t.plans.period.annual, { exact: true }).click();
      await page.getByText(t.plans.currency.UAH, { exact: true }).click();
      await expect(page.getByText(/≈ \d+ грн/).first()).toBeVisible();
      // The switches' sliding highlight has come to rest.
      await expect(page.locator('.ant-segmented-thumb')).toHaveCount(0);
      await expectFits(page, `plan-annual-uah-${lang}-${width}`);
    });

    test(`${lang} at ${width}px: integration statuses (list, a source's destinations, a broken and an unset destination, the dashboard) fit the screen`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: width < 768 ? 812 : 900 });
      await signUp(page, lang, uniqueLogin(`screens-state-${lang}-${width}`), 'Secret123');
      // A source with two http destinations: one that cannot be reached, one without its URL.
      const route = await sourceWithHttpDestinations(page, 'Site form', [
        { name: 'Old CRM endpoint', url: 'http://127.0.0.1:9/leads' },
        { name: 'New endpoint' },
      ]);
      const [dead, unset] = route.destinations;
      const ids = { source: route.source, dead: dead!, unset: unset! };
      const states = t.integrations.state;

      await page.goto(`${t.prefix}/admin/integrations`);
      await expect(page.locator('[data-state="broken_other"]').first()).toBeVisible();
      await expect(page.locator('[data-state="not_configured"]').first()).toBeVisible();
      await expectFits(page, `states-list-${lang}-${width}`);

      await page.goto(`${t.prefix}/admin/integrations/webhook/${ids.source}?tab=destinations`);
      await expect(page.getByTestId('destination-row')).toHaveCount(2);
      await expect(page.getByTestId('state-alert')).toBeVisible();
      await expectFits(page, `states-source-${lang}-${width}`);

      await page.goto(`${t.prefix}/admin/integrations/http/${ids.dead}`);
      await expect(page.locator('.lr-int-subtitle').getByText(states.brokenOther)).toBeVisible();
      await expect(page.getByTestId('state-alert')).toContainText(t.integrations.reasons.NETWORK);
      await expectFits(page, `states-http-broken-${lang}-${width}`);

      await page.goto(`${t.prefix}/admin/integrations/http/${ids.unset}`);
      await expect(page.locator('.lr-int-subtitle').getByText(states.notConfigured)).toBeVisible();
      await expectFits(page, `states-http-unset-${lang}-${width}`);

      await page.goto(`${t.prefix}/admin`);
      await expect(page.getByTestId('health-row')).toHaveCount(3);
      await expectFits(page, `states-dashboard-${lang}-${width}`);
    });

    test(`${lang} at ${width}px: Uspacy's connect dialog and its integration's tabs fit the screen`, async ({
      page,
      request,
    }) => {
      const c = t.crm;
      const { uspacy } = (await (await request.get('/api/emulators')).json()) as {
        uspacy: { url: string; webhookUrl: string };
      };
      await page.setViewportSize({ width, height: width < 768 ? 812 : 900 });
      await signUp(
        page,
        lang,
        uniqueLogin(`screens-uspacy-${lang}-${width}`),
        'Secret123',
        '/admin/integrations/uspacy',
      );
      await page.getByRole('button', { name: t.uspacy.list.connect }).first().click();
      const dialog = page.getByRole('dialog');
      await expect(dialog.getByLabel(t.uspacy.connect.webhookUrl)).toBeVisible();
      // The dialog has finished opening.
      await expect(page.locator('.ant-zoom-appear, .ant-zoom-enter')).toHaveCount(0);
      await expectFits(page, `uspacy-connect-webhook-${lang}-${width}`, { fullPage: false });
      await dialog.getByText(t.uspacy.modes.password, { exact: true }).click();
      await expect(dialog.getByLabel(t.uspacy.connect.portal)).toBeVisible();
      await expect(dialog.getByRole('radio', { name: t.uspacy.modes.password })).toBeChecked();
      // For the picture: the radio's switch has finished its transition.
      await forPicture(() =>
        page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running')),
      );
      await expectFits(page, `uspacy-connect-password-${lang}-${width}`, { fullPage: false });

      await dialog.getByText(t.uspacy.modes.webhook, { exact: true }).click();
      await dialog.getByLabel(t.uspacy.connect.webhookUrl).fill(uspacy.webhookUrl);
      await dialog.getByRole('button', { name: c.create.saveToken, exact: true }).click();
      await expect(page).toHaveURL(urlMatching(`${t.prefix}/admin/integrations/uspacy/${UUID}`), { timeout: 15_000 });
      await expect(page.getByTestId('uspacy-account')).toContainText(new URL(uspacy.url).host);
      // For the pictures: the "connected" toast has gone, it would cover the header in every one below.
      await forPicture(() => expect(page.locator('.ant-message-notice')).toHaveCount(0, { timeout: 10_000 }));
      await expectFits(page, `uspacy-connection-${lang}-${width}`);

      await page.getByRole('tab', { name: t.uspacy.tabs.pipeline }).click();
      await page.getByText(t.uspacy.targets.deal, { exact: true }).click();
      await page.getByLabel(t.uspacy.settings.funnel, { exact: true }).click();
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: 'Опт' }).click();
      await expect(page.locator('.ant-select-dropdown:visible')).toHaveCount(0);
      await page.evaluate(() => window.scrollTo(0, 0));
      await expectFits(page, `uspacy-pipeline-${lang}-${width}`);

      await page.getByRole('tab', { name: t.uspacy.tabs.fields }).click();
      await page.getByRole('button', { name: c.mapping.add }).click();
      await page.getByRole('combobox', { name: c.mapping.fromLabel.replace('{{n}}', '1') }).fill('custom.city');
      await page.getByLabel(c.mapping.toLabel.replace('{{n}}', '1')).click();
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: 'Місто' }).click();
      await expect(page.locator('.ant-select-dropdown:visible')).toHaveCount(0);
      await page.evaluate(() => window.scrollTo(0, 0));
      await expectFits(page, `uspacy-fields-${lang}-${width}`);

      await page.getByRole('tab', { name: t.uspacy.tabs.users }).click();
      await expect(page.getByText('Богдан Мельник')).toBeVisible();
      await expectFits(page, `uspacy-users-${lang}-${width}`);
    });

    test(`${lang} at ${width}px: amoCRM's and Pipedrive's connection, settings, fields, users and webhooks fit the screen`, async ({
      page,
      request,
    }) => {
      const { amocrm: amo, pipedrive: pd } = t;
      const { pipedrive } = (await (await request.get('/api/emulators')).json()) as { pipedrive: { apiToken: string } };
      await page.setViewportSize({ width, height: width < 768 ? 812 : 900 });
      await signUp(page, lang, uniqueLogin(`screens-amo-${lang}-${width}`), 'Secret123', '/admin/integrations/amocrm');
      await page.getByRole('button', { name: amo.list.connect }).first().click();
      await page.getByRole('dialog').getByRole('button').last().click();
      // amoCRM's consent (the emulator) sends the browser back to the integration, connected.
      await expect(page).toHaveURL(urlMatching(`${t.prefix}/admin/integrations/amocrm/${UUID}`), { timeout: 15_000 });
      await page.getByRole('button', { name: amo.backups.create }).click();
      await expect(page.getByRole('button', { name: amo.backups.download })).toBeVisible();
      await forPicture(() => expect(page.locator('.ant-message-notice')).toHaveCount(0, { timeout: 10_000 }));
      await expectFits(page, `amocrm-connection-${lang}-${width}`);
      await page.getByRole('tab', { name: amo.tabs.pipeline }).click();
      await expect(page.getByLabel(amo.settings.status, { exact: true })).toBeVisible();
      await expectFits(page, `amocrm-pipeline-${lang}-${width}`);
      await page.getByRole('tab', { name: amo.tabs.fields }).click();
      await page.getByRole('button', { name: t.crm.mapping.add }).click();
      await expectFits(page, `amocrm-fields-${lang}-${width}`);
      await page.getByRole('tab', { name: amo.tabs.users }).click();
      await expect(page.getByRole('button', { name: t.crm.users.makeCollection })).toBeVisible();
      await expectFits(page, `amocrm-users-${lang}-${width}`);

      await page.goto(`${t.prefix}/admin/integrations/pipedrive`);
      await page.getByRole('button', { name: pd.list.connect }).first().click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText(pd.connect.token, { exact: true }).click();
      await dialog.getByRole('textbox', { name: pd.token.label }).fill(pipedrive.apiToken);
      await dialog.getByRole('button', { name: t.crm.create.saveToken, exact: true }).click();
      await expect(page).toHaveURL(urlMatching(`${t.prefix}/admin/integrations/pipedrive/${UUID}`), {
        timeout: 15_000,
      });
      await page.getByText(pd.token.title).click();
      await expect(page.getByRole('button', { name: pd.token.save })).toBeVisible();
      await forPicture(() => expect(page.locator('.ant-message-notice')).toHaveCount(0, { timeout: 10_000 }));
      await expectFits(page, `pipedrive-connection-${lang}-${width}`);
      await page.getByRole('tab', { name: pd.tabs.pipeline }).click();
      await page.getByText(pd.targets.deal, { exact: true }).click();
      await page.getByRole('switch', { name: pd.settings.activity }).click();
      await expect(page.getByLabel(pd.settings.dueInMinutes)).toBeVisible();
      await expectFits(page, `pipedrive-pipeline-${lang}-${width}`);
      await page.getByRole('tab', { name: pd.tabs.webhooks }).click();
      await expect(page.getByLabel(t.crm.webhooks.url)).toBeVisible();
      await expectFits(page, `pipedrive-webhooks-${lang}-${width}`);
    });

    test(`${lang} at ${width}px: billing, referral and the plan page's checkout fit the screen`, async ({ page }) => {
      await page.setViewportSize({ width, height: width < 768 ? 812 : 900 });
      // Nothing paid yet: the empty states.
      await signUp(page, lang, uniqueLogin(`screens-pay-${lang}-${width}`), 'Secret123', '/admin/billing');
      await expect(page.getByRole('heading', { name: t.billing.page.title, exact: true })).toBeVisible();
      await expect(page.getByText(t.billing.invoices.empty)).toBeVisible();
      await expect(page.getByText(t.billing.card.none)).toBeVisible();
      await expectFits(page, `billing-empty-${lang}-${width}`);

      await page.goto(`${t.prefix}/admin/referral`);
      await expect(page.getByRole('heading', { name: t.referral.page.title, exact: true })).toBeVisible();
      await expect(page.getByRole('img', { name: t.referral.link.qr }).locator('svg')).toBeVisible();
      await expectFits(page, `referral-${lang}-${width}`);

      // The checkout in its modal (a full-screen sheet on a phone), the emulator's page inside.
      await page.goto(`${t.prefix}/admin/plan`);
      const business = lang === 'uk' ? 'Бізнес' : 'Business';
      const pay = page
        .getByRole('region', { name: business })
        .getByRole('button', { name: t.plans.actions.pay, exact: true });
      const dialog = page.getByRole('dialog');
      const checkout = page.frameLocator('[data-testid="checkout-frame"]');
      // A checkout left unpaid first: the billing list shows it abandoned beside the paid one.
      await pay.click();
      await expect(checkout.getByTestId('liqpay-pay')).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await pay.click();
      await expect(checkout.getByTestId('liqpay-pay')).toBeVisible();
      // The modal has finished opening.
      await expect(page.locator('.ant-zoom-appear, .ant-zoom-enter')).toHaveCount(0);
      // What the screen shows: a fixed sheet on a whole-page picture would float mid-page.
      await expectFits(page, `plan-checkout-${lang}-${width}`, { fullPage: false });
      await checkout.getByTestId('liqpay-pay').click();
      await expect(dialog).toBeHidden();

      // Paid: the plan, the saved card, an invoice, the payment and the abandoned checkout (which the
      // e2e server abandons after 20 s: scripts/e2e-server.mjs).
      await expect(async () => {
        await page.goto(`${t.prefix}/admin/billing`);
        await expect(page.getByTestId('orders').getByText(t.billing.orderStatus.expired)).toBeVisible({
          timeout: 2_000,
        });
      }).toPass({ timeout: 60_000, intervals: [3_000] });
      await expect(page.getByText(/LR-\d{4}-/).first()).toBeVisible();
      await expect(page.getByText(t.billing.card.remove)).toBeVisible();
      await expectFits(page, `billing-${lang}-${width}`);
      await page.getByText(t.billing.currency.UAH, { exact: true }).click();
      await expect(page.getByText(/≈ \d+ грн/).first()).toBeVisible();
      await expect(page.locator('.ant-segmented-thumb')).toHaveCount(0);
      await expectFits(page, `billing-uah-${lang}-${width}`);
    });

    test(`${lang} at ${width}px: a held account's dashboard (notice, held counter and chart, held leads) fits the screen`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: width < 768 ? 812 : 900 });
      // The server's answers replaced before the dashboard first loads.
      await heldAccountCalls(page);
      await signUp(page, lang, uniqueLogin(`held-${lang}-${width}`), 'Secret123');
      const notice = page.getByTestId('held-notice');
      await expect(notice).toContainText(t.dashboard.held.action);
      await expect(page.getByTestId('counter-held')).toContainText('26');
      await expect(page.getByTestId('hook-row').first()).toContainText('Olena Kovalenko');
      await expect(page.getByTestId('hook-row').first()).toContainText(texts[lang].hooks.held.plan_expired);
      await expectFits(page, `admin-held-${lang}-${width}`);
    });

    test(`${lang} at ${width}px: AlphaSMS and GA4 screens (list, connection, messages with the SMS counter, log, event, test lead) fit the screen`, async ({
      page,
      request,
    }) => {
      await page.setViewportSize({ width, height: width < 768 ? 812 : 900 });
      const emulators = await (await request.get('/api/emulators')).json();
      await signUp(page, lang, uniqueLogin(`screens-sms-${lang}-${width}`), 'Secret123', '/admin/integrations/alfasms');
      // From the top, once (for the picture) the "saved" toasts have gone: a whole-page picture of
      // what a person sees.
      const shot = async (name: string) => {
        await forPicture(() => expect(page.locator('.ant-message-notice')).toHaveCount(0));
        await page.evaluate(() => window.scrollTo(0, 0));
        await expectFits(page, name);
      };
      const create = async (type: 'alfasms' | 'ga', label: string) => {
        await page.getByRole('button', { name: label }).first().click();
        const dialog = page.getByRole('dialog', { name: label });
        // The modal has finished opening: a click during its zoom can miss the button.
        await expect(page.locator('.ant-zoom-appear, .ant-zoom-enter')).toHaveCount(0);
        await dialog.getByRole('button', { name: t.integrations.create.submit }).click();
        await expect(page).toHaveURL(urlMatching(`${t.prefix}/admin/integrations/${type}/${UUID}`));
      };

      await expect(page.getByRole('heading', { name: 'AlphaSMS', exact: true })).toBeVisible();
      await shot(`alfasms-list-${lang}-${width}`);
      await create('alfasms', t.sms.list.connect);
      await page.getByLabel(t.sms.connection.apiKey).fill(emulators.alfasms.apiKey);
      await page.getByRole('button', { name: t.sms.connection.save }).click();
      await expect(page.getByText(t.sms.connection.checkOk)).toBeVisible();
      await expect(page.getByText(/UAH|₴|грн/).first()).toBeVisible();
      await shot(`alfasms-connection-${lang}-${width}`);

      await page.getByRole('tab', { name: t.sms.tabs.messages }).click();
      await page.getByLabel(t.sms.settings.sender).fill('LeadRelay');
      await page.getByLabel(t.sms.recipients.both).check();
      await expect(page.getByTestId('sms-counter')).toHaveCount(2);
      await shot(`alfasms-messages-${lang}-${width}`);

      const id = new URL(page.url()).pathname.split('/').pop() ?? '';
      await smsLogCalls(page, id);
      await page.getByRole('tab', { name: t.sms.tabs.log }).click();
      await expect(page.getByText(t.sms.status.undelivered, { exact: true })).toBeVisible();
      await shot(`alfasms-log-${lang}-${width}`);

      await page.goto(`${t.prefix}/admin/integrations/ga`);
      await expect(page.getByRole('heading', { name: 'Google Analytics 4', exact: true })).toBeVisible();
      await create('ga', t.ga.list.connect);
      await page.getByLabel(t.ga.connection.measurementId).fill(emulators.ga.measurementId);
      await page.getByLabel(t.ga.connection.apiSecret).fill(emulators.ga.apiSecret);
      await page.getByRole('button', { name: t.ga.connection.save }).click();
      await expect(page.getByText(t.ga.connection.checkOk)).toBeVisible();
      await shot(`ga-connection-${lang}-${width}`);

      await page.getByRole('tab', { name: t.ga.tabs.event }).click();
      await page.getByRole('button', { name: t.ga.event.addParam }).click();
      await page.getByLabel(t.ga.event.paramName).fill('city');
      await page.getByRole('button', { name: t.ga.test.send }).click();
      await expect(page.getByText(t.ga.test.valid)).toBeVisible();
      await shot(`ga-event-${lang}-${width}`);

      // What a refused event looks like: Google's messages as its validation server words them.
      await page.route(
        (url) => /^\/api\/integrations\/[^/]+\/actions\/debug$/.test(url.pathname),
        (route) =>
          route.fulfill({
            status: 200,
            contentType: 'application/json',
            body: JSON.stringify({
              valid: false,
              issues: [],
              validationMessages: [
                {
                  fieldPath: 'events',
                  description: 'Event at index: [0] has name [session_start] which is reserved.',
                  validationCode: 'NAME_RESERVED',
                },
                {
                  fieldPath: 'events[0].params.note',
                  description: 'Param [note] has a value longer than 100.',
                  validationCode: 'VALUE_OUT_OF_BOUNDS',
                },
              ],
              payload: { client_id: '1234567890.1700000000', events: [{ name: 'session_start', params: {} }] },
            }),
          }),
      );
      await page.getByRole('button', { name: t.ga.test.send }).click();
      await expect(page.getByText(t.ga.validation.NAME_RESERVED)).toBeVisible();
      await shot(`ga-test-invalid-${lang}-${width}`);
    });

    test(`${lang} at ${width}px: a Horoshop source (connect form, connected shop with its webhook and last orders, mapping) fits the screen`, async ({
      page,
    }) => {
      const h = t.horoshop;
      await page.setViewportSize({ width, height: width < 768 ? 812 : 900 });
      const shop = (await (await page.request.get('/api/emulators')).json()).horoshop as Record<string, string>;
      await signUp(page, lang, uniqueLogin(`horoshop-${lang}-${width}`), 'Secret123', '/admin/integrations');
      await page.getByRole('button', { name: t.integrations.list.new }).first().click();
      const dialog = page.getByRole('dialog', { name: t.integrations.create.title });
      await dialog.locator('label').filter({ hasText: 'Horoshop' }).first().click();
      await dialog.getByLabel(t.integrations.create.name).fill(lang === 'uk' ? 'Кавовий магазин' : 'Coffee shop');
      await dialog.getByRole('button', { name: t.integrations.create.submit }).click();
      const form = page.getByTestId('connect-form');
      await expect(form).toBeVisible();
      await expectFits(page, `horoshop-connect-${lang}-${width}`);

      await form.getByLabel(h.form.domain).fill(shop.url!);
      await form.getByLabel(h.form.login).fill(shop.login!);
      await form.getByLabel(h.form.password, { exact: true }).fill(shop.password!);
      await form.getByRole('button', { name: h.form.submit }).click();
      await page.getByRole('button', { name: h.webhook.register }).click();
      await expect(page.getByTestId('source-subscription')).toHaveAttribute('data-status', 'active');
      // Two customers check out; the shop sends the first order's webhook twice.
      for (const [name, phone, title, price, times] of [
        ['Олена Коваленко', '0671234567', 'Кавоварка CM-200', 4200, 2],
        ['Тарас Мельник', '0501112233', 'Фільтри, 10 шт.', 300, 1],
      ] as const) {
        const made = await fetch(`${shop.url}/__emulator/orders`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            name,
            phone,
            products: [{ title: { ua: title }, quantity: 1, price, total_price: price }],
          }),
        });
        const { order_id: id } = (await made.json()) as { order_id: number };
        await fetch(`${shop.url}/__emulator/orders/${id}/webhook`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ times }),
        });
      }
      await expect(page.getByTestId('source-item')).toHaveCount(2, { timeout: 15_000 });
      await expectFits(page, `horoshop-${lang}-${width}`);

      await page.getByRole('tab', { name: t.integrations.tabs.mapping }).click();
      await expect(page.getByText(h.mapping.sample)).toBeVisible();
      await expectFits(page, `horoshop-mapping-${lang}-${width}`);
    });

    test(`${lang} at ${width}px: parsers (list, create, rules with the live sample, mail, mail log) fit the screen`, async ({
      page,
    }) => {
      const p = t.parsers;
      await page.setViewportSize({ width, height: width < 768 ? 812 : 900 });
      await signInByApi(page, lang, OWNER.login, OWNER.password, '/admin/parsers/create');
      await expect(page.getByRole('heading', { name: p.create.title })).toBeVisible();
      await expectFits(page, `parser-create-${lang}-${width}`);

      // One parser serves every size and language (the owner's demo allows few integrations).
      await page.goto(`${t.prefix}/admin/parsers`);
      // Loaded: a row, or the empty list's words.
      await expect(page.getByTestId('parser-row').or(page.getByText(p.list.empty)).first()).toBeVisible();
      const existing = page.getByTestId('parser-row').filter({ hasText: 'Prom.ua — замовлення' });
      if ((await existing.count()) === 0) {
        await page.goto(`${t.prefix}/admin/parsers/create`);
        await page.getByLabel(p.create.name, { exact: true }).fill('Prom.ua — замовлення');
        await expect(page.getByLabel(p.create.name, { exact: true })).toHaveValue('Prom.ua — замовлення');
        await page.getByText(p.create.presets.prom).click();
        await page.getByRole('button', { name: p.create.submit }).click();
        await expect(page).toHaveURL(urlMatching(`${t.prefix}/admin/parsers/${UUID}`));
        const address = (await page.locator('.lr-parser-address-small').first().innerText()).trim();
        await sendMail({ to: address, raw: PROM_SAMPLE, from: 'no-reply@prom.ua' });
        await sendMail({
          to: address,
          raw: 'From: Rozetka <noreply@rozetka.com.ua>\r\nSubject: Rozetka order\r\nMessage-ID: <r-1@rozetka.com.ua>\r\n\r\nOrder 1\r\n',
          from: 'noreply@rozetka.com.ua',
        });
        await page.goto(`${t.prefix}/admin/parsers`);
      }
      const row = page.getByTestId('parser-row').filter({ hasText: 'Prom.ua — замовлення' }).first();
      await expect(row).toBeVisible();
      await expectFits(page, `parsers-${lang}-${width}`);

      await row.getByRole('link', { name: 'Prom.ua — замовлення' }).click();
      await page.getByRole('textbox', { name: p.sample.title }).fill(PROM_SAMPLE);
      await expect(page.getByTestId('parser-preview')).toContainText('Олена Петренко');
      await expectFits(page, `parser-rules-${lang}-${width}`);

      await page.getByRole('tab', { name: p.page.tabs.mail, exact: true }).click();
      await expect(page.getByTestId('parser-address')).toBeVisible();
      await expectFits(page, `parser-mail-${lang}-${width}`);

      await page.getByRole('tab', { name: p.page.tabs.log }).click();
      await expect(page.getByTestId('parser-mail')).toHaveCount(2, { timeout: 15_000 });
      await expect(page.getByTestId('hook-row').first()).toBeVisible();
      await expectFits(page, `parser-log-${lang}-${width}`);
    });

    test(`${lang} at ${width}px: the owner's plans (tariffs) screen and its form fit the screen`, async ({ page }) => {
      await page.setViewportSize({ width, height: width < 768 ? 812 : 900 });
      await signInByApi(page, lang, OWNER.login, OWNER.password, '/admin/super/tariffs');
      await expect(page.getByRole('heading', { name: t.plans.tariffs.title, exact: true })).toBeVisible();
      await expect(page.getByText('$290.00').first()).toBeVisible();
      await expectFits(page, `tariffs-${lang}-${width}`);
      await page.getByRole('button', { name: t.plans.tariffs.create }).click();
      await page.getByRole('dialog').getByRole('button', { name: t.plans.tariffs.createOk }).click();
      await expect(page.getByRole('dialog').getByText(texts[lang].errors.REQUIRED).first()).toBeVisible();
      // The error lines have finished sliding in.
      await expect(page.locator('[class*="show-help-item-appear"], [class*="show-help-item-enter"]')).toHaveCount(0);
      await expectFits(page, `tariff-form-${lang}-${width}`);
    });

    test(`${lang} at ${width}px: news (list, post, publishing form), the integration catalogue tabs and /test fit the screen`, async ({
      page,
    }) => {
      test.setTimeout(180_000);
      const n = t.news;
      const c = t.catalogue;
      await page.setViewportSize({ width, height: width < 768 ? 812 : 900 });
      await signInByApi(page, lang, OWNER.login, OWNER.password);

      // Publishing: the form with the editor, then the post and the list with the views per day.
      await page.goto(`${t.prefix}/news`);
      await expect(page.getByRole('heading', { name: n.title, exact: true })).toBeVisible();
      await page.getByRole('button', { name: n.create }).click();
      const dialog = page.getByRole('dialog', { name: n.form.createTitle });
      // Both versions: each page shows its own.
      await dialog.locator('#title').fill('Uspacy: ліди з сайту одразу в CRM');
      await dialog.locator('.lr-editor-content').first().click();
      await page.keyboard.type(
        'Тепер кожна заявка з форми на сайті за секунду стає угодою в Uspacy, з відповідальним менеджером і джерелом.',
      );
      await page.keyboard.press('Enter');
      await page.keyboard.type('Підключення займає дві хвилини.');
      await dialog.locator('#titleEn').fill('Uspacy: website leads straight into your CRM');
      await dialog.locator('.lr-editor-content').nth(1).click();
      await page.keyboard.type(
        'Every request from a website form now becomes a deal in Uspacy within a second, with its manager and source.',
      );
      await page.keyboard.press('Enter');
      await page.keyboard.type('Connecting takes two minutes.');
      const png = await page.evaluate(() => {
        const canvas = document.createElement('canvas');
        canvas.width = 1200;
        canvas.height = 600;
        const ctx = canvas.getContext('2d') as CanvasRenderingContext2D;
        const gradient = ctx.createLinearGradient(0, 0, 1200, 600);
        gradient.addColorStop(0, '#4f46e5');
        gradient.addColorStop(1, '#06b6d4');
        ctx.fillStyle = gradient;
        ctx.fillRect(0, 0, 1200, 600);
        return canvas.toDataURL('image/png').split(',')[1] ?? '';
      });
      await dialog
        .locator('input[type=file]')
        .setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: Buffer.from(png, 'base64') });
      await expect(dialog.locator('.ant-upload-list-item')).toBeVisible();
      await expectFits(page, `news-form-${lang}-${width}`, { fullPage: false });
      await dialog.getByRole('button', { name: n.form.publish }).click();
      await expect(page).toHaveURL(urlMatching(`${t.prefix}/news/${UUID}`));
      await expect(page.locator('img.lr-post-image')).toBeVisible();
      await expect
        .poll(() => page.locator('img.lr-post-image').evaluate((i: HTMLImageElement) => i.naturalWidth))
        .toBeGreaterThan(0);
      await expectFits(page, `news-post-${lang}-${width}`);
      await page.goto(`${t.prefix}/news`);
      await expect(page.locator('.lr-news-card').first()).toBeVisible();
      await expect(page.getByText(n.analytics.title)).toBeVisible();
      await expectFits(page, `news-${lang}-${width}`);

      // The catalogue: types, categories and a type's modules.
      await page.goto(`${t.prefix}/admin/super/integrations`);
      await expect(page.getByRole('heading', { name: c.types.title })).toBeVisible();
      await expect(page.getByText(t.integrations.catalogue.names.webhook, { exact: true }).first()).toBeVisible();
      await expectFits(page, `catalogue-types-${lang}-${width}`);
      await page.getByRole('button', { name: c.types.create }).click();
      await expect(page.getByRole('dialog', { name: c.types.create }).getByLabel(c.types.name)).toBeVisible();
      // The dialog has finished zooming in.
      await expect(page.locator('[class*="zoom-appear"], [class*="zoom-enter"]')).toHaveCount(0);
      await expectFits(page, `catalogue-type-form-${lang}-${width}`, { fullPage: false });
      await page.getByRole('dialog').getByRole('button', { name: c.cancel }).click();
      await page.goto(`${t.prefix}/admin/super/integrations/categories`);
      await expect(
        page.getByRole('cell', { name: t.integrations.catalogue.categories.Sources, exact: true }),
      ).toBeVisible();
      await expectFits(page, `catalogue-categories-${lang}-${width}`);
      await page.goto(`${t.prefix}/admin/super/integrations/modules`);
      await page.getByRole('combobox', { name: c.modules.type }).click();
      // The list is virtual (only what fits is drawn): search for the type first.
      await page.keyboard.type('webhook');
      await page
        .locator('.ant-select-dropdown:visible .ant-select-item-option')
        // The name and the slug beside it as a code: the webhook, not the HTTP webhook.
        .filter({ hasText: new RegExp(`^${t.integrations.catalogue.names.webhook}\\s*webhook$`) })
        .click();
      if ((await page.getByTestId('module-row').count()) === 0) {
        for (const name of lang === 'uk'
          ? ['Підключення', 'Поля та фільтри', 'Призначення']
          : ['Connection', 'Fields and filters', 'Destinations']) {
          await page.getByRole('button', { name: c.modules.create }).click();
          const form = page.getByRole('dialog', { name: c.modules.create });
          await form.getByLabel(c.modules.name).fill(name);
          await form.getByRole('button', { name: c.save }).click();
          await expect(form).toBeHidden();
        }
      }
      await expect(page.getByTestId('module-row').first()).toBeVisible();
      await forPicture(() => expect(page.locator('.ant-message-notice')).toHaveCount(0, { timeout: 15_000 }));
      await expectFits(page, `catalogue-modules-${lang}-${width}`);

      // /test, as a visitor sees it after sending a lead to a webhook that does not exist.
      await page.goto(`${t.prefix}/test`);
      await expect(page.getByRole('heading', { name: t.testLead.title })).toBeVisible();
      await page.getByLabel(t.testLead.webhook).fill('http://127.0.0.1/api/hooks/in/doesnotexist123');
      await page.getByRole('button', { name: t.testLead.send }).click();
      await expect(page.getByRole('alert')).toBeVisible();
      await expectFits(page, `test-page-${lang}-${width}`);
    });

    test(`${lang} at ${width}px: the operator's clients, a client's statistics, translations and audit log fit the screen`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: width < 768 ? 812 : 900 });
      await signInByApi(page, lang, OWNER.login, OWNER.password, '/admin/super/clients');
      await expect(page.getByRole('heading', { name: t.clients.title, exact: true })).toBeVisible();
      await expect(page.getByRole('button', { name: t.clients.actions.title }).first()).toBeVisible();
      await expectFits(page, `clients-${lang}-${width}`);

      // A stand-in for the statistics of a busy account: a screen test cannot wait 30 days for
      // leads; the API test (modules/super-users) counts real ones.
      await page.route(
        (url) => /\/api\/legacy\/api\/super-admin\/users\/[^/]+\/statistic$/.test(url.pathname),
        (route) => {
          const leadsPerDay = Array.from({ length: 30 }, (_, i) => ({ date: isoDay(29 - i), count: (i * 7) % 13 }));
          const body = {
            leadsPerDay,
            leadsTotal: leadsPerDay.reduce((n, d) => n + d.count, 0),
            integrations: { total: 4, active: 3, broken: 1 },
            deliveries: { delivered: 171, failed: 4, pending: 2, successRate: 97.7 },
            lastActivity: new Date().toISOString(),
          };
          return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(body) });
        },
      );
      await page.getByLabel(t.clients.filters.search).fill(OWNER.login);
      await page.getByLabel(t.clients.filters.search).press('Enter');
      await expect(page.getByTestId(`actions-${OWNER.login}`)).toBeVisible();
      await page.getByRole('main').getByText(OWNER.login, { exact: true }).click();
      await expect(page.getByTestId('client-chart').locator('.recharts-bar-rectangle').first()).toBeVisible();
      // The drawer has finished sliding in.
      await expect(page.locator('.ant-drawer [class*="motion"][class*="-enter"]')).toHaveCount(0);
      await expectFits(page, `client-stats-${lang}-${width}`, { fullPage: false });
      await page.keyboard.press('Escape');

      await page.goto(`${t.prefix}/admin/user?search=${encodeURIComponent(OWNER.login)}`);
      await expect(page.getByTestId('client-chart')).toBeVisible();
      await expectFits(page, `user-${lang}-${width}`);

      await page.goto(`${t.prefix}/admin/super/language`);
      await expect(page.getByRole('heading', { name: t.translations.title, exact: true })).toBeVisible();
      await page.getByLabel(t.translations.search).fill('days');
      await page.getByLabel(t.translations.search).press('Enter');
      await expect(page.getByTestId('translation-common.days')).toBeVisible();
      await expectFits(page, `language-${lang}-${width}`, { fullPage: false });

      // Something in the log: the operator saves a string and takes it back, as the screen would.
      await page.evaluate(async () => {
        const headers = {
          authorization: `Bearer ${localStorage.getItem('sessionToken')}`,
          'content-type': 'application/json',
        };
        for (const value of ['Зберегти зміни', '']) {
          await fetch('/api/legacy/api/super-admin/languages/translates', {
            method: 'POST',
            headers,
            body: JSON.stringify({ locale: 'uk', namespace: 'common', values: { save: value } }),
          });
        }
      });
      await page.goto(`${t.prefix}/admin/super/audit`);
      await expect(page.getByRole('heading', { name: t.audit.title, exact: true })).toBeVisible();
      await expect(page.getByText('save: Зберегти зміни → ∅').first()).toBeVisible();
      await expectFits(page, `audit-${lang}-${width}`);
    });
  }
}
