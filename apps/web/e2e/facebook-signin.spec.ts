import { signOut } from './support/actions';
import { texts } from './support/locales';
import { expect, test } from './support/test';
import { urlIs } from './support/url';

// Against the Graph emulator (EMULATORS=true) the page skips the JS SDK and signs in through the login
// dialog by redirect; the SDK's script is refused as well, as a blocker would (and there is no internet
// here). The emulator's user has a confirmed e-mail: the first sign-in creates the account, the second
// finds it.
const FB_USER_EMAIL = 'olena.kovalenko@example.com';

test.beforeEach(async ({ page }) => {
  await page.route('https://connect.facebook.net/**', (route) => route.abort());
});

test('continue with Facebook: a new account from /signup, then the same account from /en/signin', async ({ page }) => {
  const uk = texts.uk;
  await page.goto('/signup');
  await page.getByRole('button', { name: uk.auth.facebook.continue }).click();
  await expect(page).toHaveURL(urlIs('/admin'));
  await expect(page.getByText(uk.dashboard.status.title)).toBeVisible();
  await expect(page.getByRole('banner').getByText(uk.layout.header.demo)).toBeVisible();
  await signOut(page, 'uk', FB_USER_EMAIL);

  const en = texts.en;
  await page.goto('/en/signin');
  await page.getByRole('button', { name: en.auth.facebook.continue }).click();
  await expect(page).toHaveURL(urlIs('/en/admin'));
  await expect(page.getByRole('button', { name: FB_USER_EMAIL })).toBeVisible();
});
