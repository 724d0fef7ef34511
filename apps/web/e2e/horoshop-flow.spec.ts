import { baseURL } from '../playwright.config';
import { createInDialog, signUp } from './support/actions';
import { texts, uniqueLogin } from './support/locales';
import { expect, test } from './support/test';
import { UUID, urlMatching } from './support/url';

// Issue 14's check for Horoshop, against the shop emulator the e2e server runs (EMULATORS=true):
// connect a Horoshop source on its own screen, register the order webhook, and when the shop
// sends one order's webhook twice, the lead log shows one lead with the customer and the total.
const t = texts.en;
const i = t.integrations;
const h = t.horoshop;

interface Shop {
  url: string;
  login: string;
  password: string;
}
let shop: Shop;
test.beforeAll(async ({ request }) => {
  shop = (await (await request.get(`${baseURL}/api/emulators`)).json()).horoshop;
});

test('a Horoshop order arrives as a lead once even when its webhook is sent twice', async ({ page }) => {
  await signUp(page, 'en', uniqueLogin('horoshop'), 'Secret123', '/admin/integrations');
  await page.getByRole('button', { name: i.list.new }).first().click();
  await createInDialog(page, 'Horoshop', 'Coffee shop');
  await expect(page).toHaveURL(urlMatching(`/en/admin/integrations/horoshop/${UUID}`));

  // The shop's address and its API admin, checked with the shop before they are kept.
  const form = page.getByTestId('connect-form');
  await form.getByLabel(h.form.domain).fill(shop.url);
  await form.getByLabel(h.form.login).fill(shop.login);
  await form.getByLabel(h.form.password, { exact: true }).fill(shop.password);
  await form.getByRole('button', { name: h.form.submit }).click();
  await expect(page.getByText(h.form.connected)).toBeVisible();
  await expect(page.getByText(h.connection.byPassword.replace('{{login}}', shop.login))).toBeVisible();

  await page.getByRole('button', { name: h.webhook.register }).click();
  await expect(page.getByText(h.webhook.registered)).toBeVisible();
  await expect(page.getByTestId('source-subscription')).toHaveAttribute('data-status', 'active');

  // A customer checks out; the shop sends the order's webhook twice.
  const created = await fetch(`${shop.url}/__emulator/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Олена Коваленко',
      phone: '067 123 45 67',
      products: [{ title: { ua: 'Кавоварка CM-200' }, quantity: 1, price: 4200, total_price: 4200 }],
    }),
  });
  const order = (await created.json()) as { order_id: number };
  const fired = await fetch(`${shop.url}/__emulator/orders/${order.order_id}/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ times: 2 }),
  });
  const { shots } = (await fired.json()) as { shots: { status: number }[] };
  expect(shots.map((s) => s.status)).toEqual([200, 200]);

  // The page's last orders: one order, received twice (or more, should the 5-minute check find it too).
  const orders = page.getByTestId('source-item');
  await expect(orders).toHaveCount(1, { timeout: 15_000 });
  await expect(orders.first()).toContainText(String(order.order_id));
  await expect(page.getByTestId('times-seen')).toHaveText(/^× [2-9]$/);

  // The lead log: exactly one lead, with the customer's name and phone and the order's total.
  await page.getByRole('tab', { name: i.tabs.leads }).click();
  const rows = page.getByTestId('hook-row');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Олена Коваленко');
  await expect(rows.first()).toContainText('+380671234567');
  await rows.first().click();
  const drawer = page.getByRole('dialog', { name: t.hooks.detail.title });
  // The field is named in the page's language ("Total", not the key "total").
  const total = drawer
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: t.common.leadFields.total, exact: true }) });
  await expect(total).toContainText('4200');
  await expect(drawer).toContainText('Кавоварка CM-200 × 1 = 4200');
});
