import { type HttpEmulator, startHttpEmulator } from '@leadrelay/connectors/http/emulator';
import type { Page } from '@playwright/test';
import enCodes from '../../../packages/connectors/src/promua/words/codes/en.json' with { type: 'json' };
import ukCodes from '../../../packages/connectors/src/promua/words/codes/uk.json' with { type: 'json' };
import enWords from '../../../packages/connectors/src/promua/words/en.json' with { type: 'json' };
import ukWords from '../../../packages/connectors/src/promua/words/uk.json' with { type: 'json' };
import { baseURL } from '../playwright.config';
import enGuardian from '../src/locales/en/guardian.json' with { type: 'json' };
import ukGuardian from '../src/locales/uk/guardian.json' with { type: 'json' };
import { createInDialog, signUp } from './support/actions';
import { type Lang, texts, uniqueLogin } from './support/locales';
import { expectFits, forPicture } from './support/screens';
import { expect, test } from './support/test';
import { UUID, urlMatching } from './support/url';

// Issue 32's check for Prom.ua, against the Prom API emulator the e2e server runs (EMULATORS=true):
// connect a Prom.ua source with its API token on its own screen, an order made at Prom arrives as
// one lead when the orders are checked (twice: still one lead), delivered to an http destination;
// the token revoked at Prom, the next check says so on the page in the user's words, and the
// guardian's screen lists the refused source with the reason and a link back to reconnect it.
const words = { en: enWords, uk: ukWords };
const guardian = { en: enGuardian, uk: ukGuardian };
const codes = { en: enCodes, uk: ukCodes };

interface PromDemo {
  url: string;
}
let prom: PromDemo;
let crm: HttpEmulator;
test.beforeAll(async ({ request }) => {
  prom = (await (await request.get(`${baseURL}/api/emulators`)).json()).promua;
  // A free port of its own: every worker runs this beforeAll.
  crm = await startHttpEmulator({ host: '127.0.0.1' });
});
test.afterAll(() => crm?.close());

/** A store of its own at the emulated Prom, with its API token. */
async function newStore(): Promise<{ company: number; token: string }> {
  const res = await fetch(`${prom.url}/__emulator/companies`, { method: 'POST' });
  return (await res.json()) as { company: number; token: string };
}
async function newOrder(company: number, name: string): Promise<{ id: number }> {
  const res = await fetch(`${prom.url}/__emulator/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ company, name, lastName: 'Коваленко', phone: '067 123 45 67' }),
  });
  return (await res.json()) as { id: number };
}

/** Creates the Prom.ua source on its screen and connects the token; the integration's path. */
async function connectOnScreen(page: Page, lang: Lang, token: string): Promise<string> {
  const i = texts[lang].integrations;
  const w = words[lang];
  await page.getByRole('button', { name: i.list.new }).first().click();
  // The dialog in the page's language (createInDialog reads the English one).
  const dialog = page.getByRole('dialog', { name: i.create.title });
  await dialog.locator('label').filter({ hasText: 'Prom.ua' }).first().click();
  await dialog.getByLabel(i.create.name).fill(lang === 'en' ? 'My Prom store' : 'Мій магазин на Prom');
  await dialog.getByRole('button', { name: i.create.submit }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(urlMatching(`${texts[lang].prefix}/admin/integrations/promua/${UUID}`));
  const form = page.getByTestId('connect-form');
  await form.getByLabel(w.form.token).fill(token);
  await form.getByRole('button', { name: w.form.submit }).click();
  await expect(page.getByText(w.form.connected)).toBeVisible();
  await expect(page.getByText(w.connection.tokenEnding.replace('{{end}}', token.slice(-4)))).toBeVisible();
  return new URL(page.url()).pathname;
}

test('a Prom.ua order arrives as one delivered lead; a revoked token shows on the page', async ({ page }) => {
  const t = texts.en;
  const w = words.en;
  await signUp(page, 'en', uniqueLogin('promua'), 'Secret123', '/admin/integrations');
  const store = await newStore();

  // A wrong token is refused in the user's words and nothing is connected.
  await page.getByRole('button', { name: t.integrations.list.new }).first().click();
  await createInDialog(page, 'Prom.ua', 'My Prom store');
  const form = page.getByTestId('connect-form');
  await form.getByLabel(w.form.token).fill('0000000000000000000000000000000000000000');
  await form.getByRole('button', { name: w.form.submit }).click();
  await expect(page.getByText(codes.en.errors.PROMUA_AUTH_FAILED).first()).toBeVisible();

  await form.getByLabel(w.form.token).fill(store.token);
  await form.getByRole('button', { name: w.form.submit }).click();
  await expect(page.getByText(w.form.connected)).toBeVisible();
  const path = new URL(page.url()).pathname;
  const id = path.split('/').at(-1)!;

  // An http destination for the source, made through the API the destinations tab calls.
  await page.evaluate(
    async ({ id, url }) => {
      const headers = {
        authorization: `Bearer ${localStorage.getItem('sessionToken')}`,
        'content-type': 'application/json',
      };
      const made = await fetch('/api/integrations', {
        method: 'POST',
        headers,
        body: JSON.stringify({ type: 'http', name: 'Orders CRM', settings: { url } }),
      });
      const destination = ((await made.json()) as { _id: string })._id;
      await fetch(`/api/integrations/${id}/update`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({ destination: [destination] }),
      });
    },
    { id, url: crm.hookUrl },
  );

  // A buyer orders at Prom; two checks find it: one order on the page, one lead.
  const order = await newOrder(store.company, 'Олена');
  await page.reload();
  for (let n = 0; n < 2; n++) {
    await page.getByRole('button', { name: w.poll.now }).click();
    await expect(page.locator('.ant-message').getByText(w.poll.checked).last()).toBeVisible();
  }
  const orders = page.getByTestId('source-item');
  await expect(orders).toHaveCount(1);
  await expect(orders.first()).toContainText(String(order.id));
  await expect(page.getByTestId('times-seen')).toHaveText('× 2');

  await page.getByRole('tab', { name: t.integrations.tabs.leads }).click();
  const rows = page.getByTestId('hook-row');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Олена Коваленко');
  await expect(rows.first()).toContainText('+380671234567');
  await expect(rows.first().getByTestId('delivery-chip')).toHaveAttribute('data-status', 'delivered', {
    timeout: 20_000,
  });
  expect(crm.requests.filter((r) => r.rawBody.includes(String(order.id)))).toHaveLength(1);

  // The merchant deletes the token at Prom: the next check says so, in the user's words.
  await fetch(`${prom.url}/__emulator/revoke`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: store.token }),
  });
  await page.goto(path);
  await page.getByRole('button', { name: w.poll.now }).click();
  await expect(page.getByTestId('source-poll')).toContainText(w.poll.failed);
  await expect(page.getByTestId('source-poll')).toContainText(codes.en.errors.PROMUA_AUTH_FAILED);
});

for (const lang of ['uk', 'en'] as const) {
  test(`the Prom.ua screen with an order and a revoked token fits a phone and a desktop (${lang})`, async ({
    page,
  }) => {
    const w = words[lang];
    await signUp(page, lang, uniqueLogin(`promua-${lang}`), 'Secret123', '/admin/integrations');
    const store = await newStore();
    const path = await connectOnScreen(page, lang, store.token);
    await newOrder(store.company, 'Ірина');
    await page.getByRole('button', { name: w.poll.now }).click();
    await expect(page.getByTestId('source-item')).toHaveCount(1);
    for (const width of [375, 1440]) {
      await page.setViewportSize({ width, height: width < 768 ? 812 : 900 });
      await page.goto(path);
      await expect(page.getByTestId('source-item')).toHaveCount(1);
      await forPicture(() => page.evaluate(() => window.scrollTo(0, 0)));
      await expectFits(page, `promua-${lang}-${width}`);
    }
    await fetch(`${prom.url}/__emulator/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: store.token }),
    });
    await page.getByRole('button', { name: w.poll.now }).click();
    await expect(page.getByTestId('source-poll')).toContainText(codes[lang].errors.PROMUA_AUTH_FAILED);
    for (const width of [375, 1440]) {
      await page.setViewportSize({ width, height: width < 768 ? 812 : 900 });
      await page.goto(path);
      await expect(page.getByTestId('source-poll')).toContainText(codes[lang].errors.PROMUA_AUTH_FAILED);
      await expectFits(page, `promua-revoked-${lang}-${width}`);
    }

    // The guardian lists the refused source: its name, the reason in the user's words, since when,
    // and a link back to its page to connect a new token.
    const g = guardian[lang].history;
    const name = lang === 'en' ? 'My Prom store' : 'Мій магазин на Prom';
    for (const width of [375, 1440]) {
      await page.setViewportSize({ width, height: width < 768 ? 812 : 900 });
      await page.goto(`${texts[lang].prefix}/admin/guardian`);
      const alert = page.getByTestId('guardian-alert').filter({ hasText: g.kind.access });
      await expect(alert).toHaveCount(1);
      await expect(alert).toContainText(g.open);
      // Told by the broken-integration mail that went when the token was refused.
      await expect(alert).toContainText(g.told.split('{{at}}')[0]!);
      await expect(alert).toContainText(g.access.replace('{{name}}', name).split('{{since}}')[0]!);
      await expect(alert.getByTestId('guardian-alert-reason')).toHaveText(codes[lang].errors.PROMUA_AUTH_FAILED);
      await forPicture(() => alert.scrollIntoViewIfNeeded());
      await expectFits(page, `guardian-access-${lang}-${width}`);
    }
    await page
      .getByTestId('guardian-alert')
      .getByRole('link', { name: g.reconnect.replace('{{name}}', name) })
      .click();
    await expect(page).toHaveURL(urlMatching(path));
  });
}
