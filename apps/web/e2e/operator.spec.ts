import { signInByApi } from './support/actions';
import { texts, uniqueLogin } from './support/locales';
import { OWNER } from './support/owner';
import { expect, test } from './support/test';
import { urlIs } from './support/url';

// The operator's area end to end (issue 13): a corrected Ukrainian string shows after a reload
// with no deploy; entering a client's account shows whose it is and returns to one's own.

test('the operator changes a Ukrainian string and sees it after a reload', async ({ page }) => {
  const uk = texts.uk;
  await signInByApi(page, 'uk', OWNER.login, OWNER.password, '/admin/super/language');
  await expect(page.getByRole('heading', { name: uk.translations.title, exact: true })).toBeVisible();
  await page.getByLabel(uk.translations.search).fill('layout.super.audit');
  await page.getByLabel(uk.translations.search).press('Enter');
  const entry = page.getByTestId('translation-layout.super.audit');
  await expect(entry).toBeVisible();
  await expect(entry.getByText('Audit log')).toBeVisible();
  const field = entry.getByLabel('layout.super.audit');
  await expect(field).toHaveValue(uk.layout.super.audit);
  await field.fill('Журнал подій оператора');
  await entry.getByRole('button', { name: uk.translations.save }).click();
  await expect(page.getByText(uk.translations.saved)).toBeVisible();

  // A reload: the tab of the super-admin menu now reads the saved text.
  await page.reload();
  const menu = page.getByRole('menu');
  await expect(menu.getByText('Журнал подій оператора')).toBeVisible();
  await expect(menu.getByText(uk.layout.super.audit, { exact: true })).toHaveCount(0);

  // Back to the shipped text, and the edit is in the audit log.
  await page.getByLabel(uk.translations.search).fill('layout.super.audit');
  await page.getByLabel(uk.translations.search).press('Enter');
  await page.getByTestId('translation-layout.super.audit').getByRole('button', { name: uk.translations.reset }).click();
  await expect(page.getByTestId('translation-layout.super.audit').getByLabel('layout.super.audit')).toHaveValue(
    uk.layout.super.audit,
  );
  await page.goto('/admin/super/audit');
  await expect(page.getByRole('cell', { name: uk.audit.actions.translationUpdate }).first()).toBeVisible();
  await expect(page.getByText('super.audit: ∅ → Журнал подій оператора')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('menu').getByText(uk.layout.super.audit, { exact: true })).toBeVisible();
});

test("the operator enters a client's account, sees whose it is on every page and returns", async ({ page }) => {
  const en = texts.en;
  const c = en.clients;
  await signInByApi(page, 'en', OWNER.login, OWNER.password, '/admin/super/clients');
  await expect(page.getByRole('heading', { name: c.title, exact: true })).toBeVisible();

  // A new account, its password shown once.
  const login = uniqueLogin('entered');
  await page.getByRole('button', { name: c.create.button }).click();
  const dialog = page.getByRole('dialog', { name: c.create.title });
  await dialog.getByLabel(c.create.login).fill(login);
  await dialog.getByRole('button', { name: c.create.submit }).click();
  await expect(dialog.getByTestId('created-password')).toContainText(/[A-Za-z0-9]{8,12}/);
  await dialog.getByRole('button', { name: c.create.done }).click();

  await page.getByLabel(c.filters.search).fill(login);
  await page.getByLabel(c.filters.search).press('Enter');
  await page.getByTestId(`actions-${login}`).click();
  await page.getByRole('menuitem', { name: c.actions.enter }).click();

  await expect(page).toHaveURL(urlIs('/en/admin'));
  const banner = page.getByTestId('impersonation-banner');
  await expect(banner).toContainText(login);
  await expect(banner).toContainText(OWNER.login);
  await page.goto('/en/admin/account');
  await expect(page.getByTestId('impersonation-banner')).toContainText(login);
  await expect(page.getByRole('button', { name: login })).toBeVisible();

  await page.getByRole('button', { name: c.banner.return }).click();
  await expect(page).toHaveURL(urlIs('/en/admin/super/clients'));
  await expect(page.getByTestId('impersonation-banner')).toHaveCount(0);
  await expect(page.getByRole('button', { name: OWNER.login })).toBeVisible();

  await page.goto('/en/admin/super/audit');
  const row = page.getByRole('row').filter({ hasText: en.audit.actions.userEnter }).first();
  await expect(row).toContainText(login);
  await expect(row).toContainText(OWNER.login);
});
