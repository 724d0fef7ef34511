import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { signUp } from './support/actions';
import { type Lang, texts, uniqueLogin } from './support/locales';
import { expect, test } from './support/test';
import { urlIs } from './support/url';

// Paying for a plan against the real server and the LiqPay emulator (EMULATORS=true in
// scripts/e2e-server.mjs): the checkout in the plan page's frame, the server's PAYMENT_INFORMER
// closing it, the account refreshed without a reload, the invoice and its PDF.

/** A text of the app with its {{placeholders}} filled. */
const fill = (template: string, vars: Record<string, string | number>) =>
  template.replace(/\{\{(\w+)\}\}/g, (_m, k: string) => String(vars[k] ?? ''));

async function openCheckout(page: Page, lang: Lang, plan: string) {
  const t = texts[lang];
  await page.goto(`${t.prefix}/admin/plan`);
  const card = page.getByRole('region', { name: plan });
  await card.getByRole('button', { name: t.plans.actions.pay, exact: true }).click();
  const title = fill(t.billing.pay.modalTitle, { plan, period: t.billing.period.month });
  const dialog = page.getByRole('dialog', { name: title });
  await expect(dialog).toBeVisible();
  return { dialog, checkout: page.frameLocator('[data-testid="checkout-frame"]') };
}

test('a demo account pays for a plan in the checkout frame; the header changes without a reload; the invoice’s PDF downloads', async ({
  page,
}) => {
  const t = texts.uk;
  await signUp(page, 'uk', uniqueLogin('pay'), 'Secret123');
  const header = page.getByTitle(t.layout.header.changePlan).first();
  await expect(header).toContainText(t.layout.header.demo);

  const { dialog, checkout } = await openCheckout(page, 'uk', 'Бізнес');
  await checkout.getByTestId('liqpay-pay').click();

  await expect(dialog).toBeHidden();
  await expect(page.getByText(fill(t.billing.pay.success, { plan: 'Бізнес' }))).toBeVisible();
  // The demo's days are kept and a month is added: 14 + 28…31.
  await expect(header).toContainText('Бізнес');
  await expect(header).toContainText(/залишил\S* (4[2-5]) дн/);
  await expect(page.getByTestId('plan-status')).toContainText('Бізнес');
  await expect(
    page.getByRole('region', { name: 'Бізнес' }).getByRole('button', { name: t.plans.actions.renew, exact: true }),
  ).toBeVisible();

  // The billing page, from the user menu.
  await page.locator('.lr-user-button').click();
  await page.getByRole('menuitem', { name: t.layout.user.billing }).click();
  await expect(page).toHaveURL(urlIs('/admin/billing'));
  await expect(page.getByTestId('billing-plan')).toContainText('Бізнес');
  await expect(page.getByTestId('billing-card')).toContainText(t.billing.card.remove);
  const invoice = page.getByTestId('invoices').getByRole('row', { name: /LR-\d{4}-/ });
  await expect(invoice).toContainText('$29.00');
  await expect(invoice).toContainText(t.billing.invoiceStatus.paid);
  await expect(page.getByTestId('orders').getByRole('row', { name: /LR-\d+/ })).toContainText(
    t.billing.orderStatus.paid,
  );

  const download = page.waitForEvent('download');
  await invoice.getByRole('button', { name: /PDF/ }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^LR-\d{4}-.*\.pdf$/);
  const bytes = await readFile((await file.path()) as string);
  expect(bytes.subarray(0, 4).toString('latin1')).toBe('%PDF');

  // The card is saved: switching plans charges it at once, after saying how much and to which card.
  await page.goto('/admin/plan');
  await page
    .getByRole('region', { name: 'Про' })
    .getByRole('button', { name: t.plans.actions.switch, exact: true })
    .click();
  const confirm = page.getByRole('dialog', {
    name: fill(t.billing.pay.confirmTitle, { plan: 'Про', period: t.billing.period.month }),
  });
  await expect(confirm).toContainText('$79.00');
  await expect(confirm).toContainText('Visa');
  await confirm.getByRole('button', { name: t.billing.pay.confirmOk, exact: true }).click();
  await expect(page.getByText(fill(t.billing.pay.success, { plan: 'Про' }))).toBeVisible();
  await expect(header).toContainText('Про');
  await page.goto('/admin/billing');
  await expect(page.getByTestId('invoices').getByRole('row', { name: /LR-\d{4}-/ })).toHaveCount(2);
  await expect(
    page
      .getByTestId('orders')
      .getByRole('row', { name: /LR-\d+/ })
      .first(),
  ).toContainText(t.billing.kind.token);
});

test('a declined card says why in the checkout modal and leaves the account in its demo', async ({ page }) => {
  const t = texts.en;
  await signUp(page, 'en', uniqueLogin('decline'), 'Secret123');
  const { dialog, checkout } = await openCheckout(page, 'en', 'Start');
  await checkout.getByTestId('liqpay-decline').click();

  await expect(dialog.getByText(t.billing.pay.declinedTitle)).toBeVisible();
  await expect(dialog.getByTestId('decline-message')).toBeVisible();
  await expect(dialog.getByRole('button', { name: t.billing.pay.newCard })).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByTitle(t.layout.header.changePlan).first()).toContainText(t.layout.header.demo);

  await page.goto('/en/admin/billing');
  await expect(page.getByTestId('orders').getByRole('row', { name: /LR-\d+/ })).toContainText(
    t.billing.orderStatus.failed,
  );
  await expect(page.getByTestId('invoices')).toContainText(t.billing.invoices.empty);
});

test('the referral page offers the link to copy and its QR code, and lists nobody yet', async ({ page, context }) => {
  const t = texts.en;
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signUp(page, 'en', uniqueLogin('referral'), 'Secret123');
  await page.locator('.lr-user-button').click();
  await page.getByRole('menuitem', { name: t.layout.user.referral }).click();
  await expect(page).toHaveURL(urlIs('/en/admin/referral'));
  const link = page.getByRole('textbox', { name: t.referral.link.label });
  await expect(link).toHaveValue(/\/signup\?promo=\w+$/);
  await expect(page.getByRole('img', { name: t.referral.link.qr }).locator('svg')).toBeVisible();
  await page.getByRole('button', { name: new RegExp(`${t.referral.link.copy}$`) }).click();
  await expect(page.getByText(t.referral.link.copied)).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await link.inputValue());
  await expect(page.getByText(t.referral.list.empty)).toBeVisible();
});

// scripts/e2e-server.mjs abandons an unpaid checkout after 20 s (PAYMENT_CHECKOUT_LIFETIME_SECONDS).
test('an abandoned checkout is listed as abandoned beside the paid one, not as a charge waiting; the card is named once', async ({
  page,
}) => {
  const uk = texts.uk;
  await signUp(page, 'uk', uniqueLogin('abandon'), 'Secret123');
  // Opened, looked at, closed without paying.
  const left = await openCheckout(page, 'uk', 'Бізнес');
  await expect(left.checkout.getByTestId('liqpay-pay')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(left.dialog).toBeHidden();
  // Then paid.
  const paid = await openCheckout(page, 'uk', 'Бізнес');
  await paid.checkout.getByTestId('liqpay-pay').click();
  await expect(page.getByText(fill(uk.billing.pay.success, { plan: 'Бізнес' }))).toBeVisible();

  const rows = page.getByTestId('orders').getByRole('row', { name: /LR-\d+/ });
  // The billing page expires the abandoned checkout once its lifetime has passed.
  await expect(async () => {
    await page.goto('/admin/billing');
    await expect(rows.filter({ hasText: uk.billing.orderStatus.expired })).toHaveCount(1, { timeout: 2_000 });
  }).toPass({ timeout: 60_000, intervals: [3_000] });
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: uk.billing.orderStatus.paid })).toHaveCount(1);
  await expect(page.getByTestId('orders')).not.toContainText(uk.billing.orderStatus.pending);
  await expect(page.getByTestId('invoices').getByRole('row', { name: /LR-\d{4}-/ })).toHaveCount(1);

  // One saved card, one name: "Visa ··42", not also the provider's "424242*42".
  const card = page.getByTestId('billing-card');
  await expect(card.getByTestId('saved-card-label')).toHaveText('Visa ··42');
  await expect(card).not.toContainText('424242');

  const en = texts.en;
  await page.goto('/en/admin/billing');
  await expect(rows.filter({ hasText: en.billing.orderStatus.expired })).toHaveCount(1);
  await expect(page.getByTestId('orders')).not.toContainText(en.billing.orderStatus.pending);
  await expect(page.getByTestId('billing-card').getByTestId('saved-card-label')).toHaveText('Visa ··42');
});
