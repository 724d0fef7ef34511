import { signIn } from './support/actions';
import { texts, uniqueLogin } from './support/locales';
import { OWNER } from './support/owner';
import { expect, test } from './support/test';

// "Enter as a user" (issue 27, login CSRF through /enter): the link carries a one-time code that
// signs in only the staff member who asked for it, in their own browser; old links that carried a
// session token sign nobody in.

test('an /enter link works only in the browser of the operator who asked for it', async ({ page, browser }) => {
  const en = texts.en;
  const c = en.clients;
  await page.goto('/en/signin');
  await signIn(page, 'en', OWNER.login, OWNER.password);
  await page.goto('/en/admin/super/clients');
  const login = uniqueLogin('entered');
  await page.getByRole('button', { name: c.create.button }).click();
  const dialog = page.getByRole('dialog', { name: c.create.title });
  await dialog.getByLabel(c.create.login).fill(login);
  await dialog.getByRole('button', { name: c.create.submit }).click();
  await dialog.getByRole('button', { name: c.create.done }).click();
  await page.getByLabel(c.filters.search).fill(login);
  await page.getByLabel(c.filters.search).press('Enter');

  // The operator asks to enter; the link's code is taken before this browser uses it, as someone
  // who saw the link (a forwarded message, a shoulder) would.
  let code = '';
  await page.route('**/api/auth/enter', async (route) => {
    code = (route.request().postDataJSON() as { code: string }).code;
    await route.abort();
  });
  await page.getByTestId(`actions-${login}`).click();
  await page.getByRole('menuitem', { name: c.actions.enter }).click();
  await expect.poll(() => code).not.toBe('');
  await page.unroute('**/api/auth/enter');
  const link = `/en/enter?code=${encodeURIComponent(code)}`;

  // Another browser (signed in to nothing, or to its own account) gets no session from it.
  const elsewhere = await browser.newContext();
  const other = await elsewhere.newPage();
  await other.goto(link);
  await expect(other.getByText(en.auth.enter.failed)).toBeVisible();
  await expect(other.getByText(en.errors.ENTER_OTHER_BROWSER)).toBeVisible();
  await other.goto('/en/admin');
  await expect(other).toHaveURL(/\/en\/signin/);

  // A link of the old kind, carrying a session token (here the operator's own), signs nobody in.
  const token = await page.evaluate(() => localStorage.getItem('sessionToken'));
  expect(token).toBeTruthy();
  await other.goto(`/en/enter?sessionToken=${encodeURIComponent(token!)}`);
  await expect(other.getByText(en.auth.enter.legacyTitle)).toBeVisible();
  await other.goto('/en/admin');
  await expect(other).toHaveURL(/\/en\/signin/);
  await elsewhere.close();

  // In the operator's own browser the same link enters the account, once.
  await page.goto(link);
  await expect(page).toHaveURL(/\/en\/admin$/);
  await expect(page.getByTestId('impersonation-banner')).toContainText(login);
  await page.getByRole('button', { name: c.banner.return }).click();
  await expect(page).toHaveURL(/\/en\/admin\/super\/clients$/);
  await page.goto(link);
  await expect(page.getByText(en.errors.TOKEN_INVALID)).toBeVisible();
});
