import { type HttpEmulator, startHttpEmulator } from '@leadrelay/connectors/http/emulator';
import { signInByApi } from './support/actions';
import { texts } from './support/locales';
import { OWNER } from './support/owner';
import { PROM_SAMPLE, sendMail } from './support/parsers';
import { expect, test } from './support/test';
import { UUID, urlIs, urlMatching } from './support/url';

// A business's order mails become leads: a staff member (the owner here) creates a parser, pastes a
// Prom.ua order mail and sees its fields change as the rules change, points the parser at their own
// server, sends the mail to the parser's address over SMTP, and watches it become a lead there,
// live, once.
const t = texts.en;
const p = t.parsers;
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

test('an order mail sent to a parser address becomes one lead at the http destination, live', async ({ page }) => {
  await signInByApi(page, 'en', OWNER.login, OWNER.password);

  // Parsers is in the staff member's menu.
  await page.getByRole('menuitem', { name: t.layout.menu.parsers }).click();
  await expect(page).toHaveURL(urlIs('/en/admin/parsers'));
  await page.getByRole('button', { name: p.list.create }).click();
  await expect(page.getByRole('heading', { name: p.create.title })).toBeVisible();
  await page.getByLabel(p.create.name, { exact: true }).fill('Prom.ua orders');
  await expect(page.getByLabel(p.create.name, { exact: true })).toHaveValue('Prom.ua orders');
  await page.getByText(p.create.presets.prom).click();
  await page.getByRole('button', { name: p.create.submit }).click();
  await expect(page).toHaveURL(urlMatching(`/en/admin/parsers/${UUID}`));
  const parserPath = new URL(page.url()).pathname;

  // A pasted sample yields its fields at once; a new rule adds one live, before saving.
  await page.getByRole('textbox', { name: p.sample.title }).fill(PROM_SAMPLE);
  const preview = page.getByTestId('parser-preview');
  await expect(preview.getByText(p.sample.matched)).toBeVisible();
  await expect(preview).toContainText('Олена Петренко');
  await expect(preview).toContainText('314159265');
  await expect(preview).not.toContainText('delivery_city');
  await page.getByRole('button', { name: p.rules.add }).click();
  const rule = page.getByTestId('parser-rule').last();
  await rule.getByRole('combobox', { name: p.rules.field }).fill('delivery_city');
  await rule.getByRole('combobox', { name: p.rules.kind }).click();
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: p.rules.kinds.regex })
    .click();
  await rule.getByRole('textbox', { name: p.rules.pattern }).fill('відділення №\\d+, (\\S+)');
  await expect(preview.locator('tr').filter({ hasText: 'delivery_city' })).toContainText('Київ');
  await page.getByRole('button', { name: p.rules.save }).click();
  await expect(page.getByText(p.rules.saved)).toBeVisible();

  // Its address, from the Mail tab.
  await page.getByRole('tab', { name: p.page.tabs.mail, exact: true }).click();
  const address = (await page.getByTestId('parser-address').innerText()).trim();
  expect(address).toMatch(/^p-[0-9a-f]{32}@parsers\.e2e\.test$/);

  // The user's own server as the destination.
  await page.getByRole('tab', { name: /Destinations/ }).click();
  await page.getByRole('button', { name: i.destinations.createHttp }).click();
  const dialog = page.getByRole('dialog', { name: i.create.title });
  await dialog.getByLabel(i.create.name).fill('Shop CRM endpoint');
  await dialog.getByRole('button', { name: i.create.submit }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByTestId('destination-row').filter({ hasText: 'Shop CRM endpoint' });
  await expect(row).toBeVisible();
  await row.getByRole('link', { name: 'Shop CRM endpoint' }).click();
  await page.getByLabel(h.url).fill(emulator.hookUrl);
  await page.getByRole('button', { name: h.save }).click();
  await expect(page.getByText(h.checkOk)).toBeVisible();

  // The mail log is open when the mail comes.
  await page.goto(`${parserPath}?tab=log`);
  await expect(page.getByText(p.mails.empty)).toBeVisible();
  const answer = await sendMail({ to: address, raw: PROM_SAMPLE, from: 'no-reply@prom.ua' });
  expect(answer.response).toMatch(/^250 /);

  // Live: no reload. The mail shows as a lead, and the lead in the parser's lead log, delivered.
  const mail = page.getByTestId('parser-mail').first();
  await expect(mail).toContainText(p.status.lead, { timeout: 15_000 });
  await expect(mail).toContainText('Нове замовлення №314159265 на Prom.ua');
  await expect(mail).toContainText('Київ');
  const hook = page.getByTestId('hook-row').first();
  await expect(hook).toContainText('Олена Петренко', { timeout: 15_000 });
  await expect(hook.getByTestId('delivery-chip')).toContainText('Shop CRM endpoint');

  // Exactly one record at the destination, filled from the mail.
  await expect.poll(() => emulator.requests.filter((r) => r.rawBody.includes('314159265')).length).toBe(1);
  const received = emulator.requests.find((r) => r.rawBody.includes('314159265'));
  expect(received?.body).toMatchObject({
    lead: {
      name: 'Олена Петренко',
      phone: '+380671234567',
      email: 'olena.petrenko@example.com',
      custom: { order_id: '314159265', delivery_city: 'Київ' },
    },
  });

  // The same mail forwarded again is a repeat, not a second record.
  await sendMail({ to: address, raw: PROM_SAMPLE, from: 'manager@example.com' });
  await expect(page.getByTestId('parser-mail').first()).toContainText(p.status.duplicate, { timeout: 15_000 });
  expect(emulator.requests.filter((r) => r.rawBody.includes('314159265'))).toHaveLength(1);
});
