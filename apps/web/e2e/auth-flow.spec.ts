import { signIn, signOut, signUp, signUpAndConfirm } from './support/actions';
import { LANGS, texts, uniqueLogin } from './support/locales';
import { linkTo, waitForMail } from './support/mail';
import { settled } from './support/settled';
import { expect, test } from './support/test';
import { urlIs, urlMatching } from './support/url';

for (const lang of LANGS) {
  const t = texts[lang];

  test(`${lang}: sign up, confirm from the mail, sign out, recover the password, sign in`, async ({ page }) => {
    const login = uniqueLogin(`flow-${lang}`);
    await signUpAndConfirm(page, lang, login, 'Secret123');
    await expect(page.getByText(t.dashboard.status.title)).toBeVisible();
    await expect(page.getByRole('banner').getByText(t.layout.header.demo)).toBeVisible();

    await signOut(page, lang, login);

    await page.getByRole('link', { name: t.auth.signin.forgot }).click();
    await expect(page).toHaveURL(urlIs(`${t.prefix}/recovery`));
    // The address changes a moment before the new page is drawn: fill the recovery form, not sign-in's.
    await expect(page.getByRole('heading', { name: t.auth.recovery.title })).toBeVisible();
    await page.locator('#login').fill(login);
    const since = Date.now();
    await page.getByRole('button', { name: t.auth.recovery.submit }).click();
    await expect(page.getByText(t.auth.recovery.sentTitle)).toBeVisible();

    const mail = await waitForMail(login, since);
    // The reset mail is written in the language the account signed up in.
    expect(/[а-яіїєґ]/i.test(mail.subject)).toBe(lang === 'uk');
    await page.goto(linkTo(mail, new RegExp(`^${t.prefix}/password/[^/]+$`)));
    await expect(page.getByText(t.auth.password.for.replace('{{login}}', login))).toBeVisible();
    await page.locator('#password').fill('Changed456');
    await page.locator('#passwordConfirm').fill('Changed456');
    await page.getByRole('button', { name: t.auth.password.submit }).click();
    await expect(page).toHaveURL(urlIs(`${t.prefix}/signin?message=password-changed`));
    await expect(page.getByText(t.auth.signin.passwordChanged)).toBeVisible();

    // The old password no longer works; the new one does.
    await page.locator('#login').fill(login);
    await page.locator('#password').fill('Secret123');
    await page.getByRole('main').getByRole('button', { name: t.auth.signin.submit, exact: true }).click();
    await expect(page.getByRole('alert')).toBeVisible();
    await page.locator('#password').fill('Changed456');
    await signIn(page, lang, login, 'Changed456');
  });

  test(`${lang}: a confirmation link opened in another browser confirms but signs in nobody`, async ({
    page,
    browser,
  }) => {
    const login = uniqueLogin(`elsewhere-${lang}`);
    await page.goto(`${t.prefix}/signup`);
    await page.locator('#login').fill(login);
    await page.locator('#password').fill('Secret123');
    await page.locator('#passwordConfirm').fill('Secret123');
    const since = Date.now();
    await page.getByRole('button', { name: t.auth.signup.submit }).click();
    await expect(page.getByText(t.auth.signup.checkEmailTitle)).toBeVisible();
    const link = linkTo(await waitForMail(login, since), new RegExp(`^${t.prefix}/confirm$`));

    // Another browser (a phone, or a victim sent the link): no cookie from the sign-up.
    const other = await browser.newContext();
    try {
      const phone = await other.newPage();
      await phone.goto(link);
      await expect(phone.getByText(t.auth.confirm.confirmedTitle)).toBeVisible();
      await expect(phone).toHaveURL(urlMatching(`${t.prefix}/confirm\\?token=[\\w-]+`));
      expect((await other.cookies()).map((c) => c.name)).not.toContain('refresh_token');
      await phone.getByRole('button', { name: t.auth.confirm.signin, exact: true }).click();
      await expect(phone).toHaveURL(urlIs(`${t.prefix}/signin?login=${encodeURIComponent(login)}`));
      await expect(phone.locator('#login')).toHaveValue(login);
      await phone.locator('#password').fill('Secret123');
      await phone.getByRole('main').getByRole('button', { name: t.auth.signin.submit, exact: true }).click();
      await expect(phone).toHaveURL(urlIs(`${t.prefix}/admin`));
    } finally {
      await other.close();
    }
  });
}

test('the language switcher reloads the same page in the other language and remembers it', async ({
  page,
  context,
}) => {
  await page.goto('/signin');
  await expect(page.getByRole('heading', { name: texts.uk.auth.signin.title })).toBeVisible();
  await page.getByText(texts.uk.common.language.short_en, { exact: true }).click();
  await expect(page).toHaveURL(urlIs('/en/signin'));
  await expect(page.getByRole('heading', { name: texts.en.auth.signin.title })).toBeVisible();
  const cookies = await context.cookies();
  expect(cookies.find((c) => c.name === 'lang')?.value).toBe('en');

  // Coming back to the root honours the remembered language.
  await page.goto('/');
  await expect(page).toHaveURL(urlIs('/en/signin'));
});

test('a session that ends on the server sends the user to sign in with a notice', async ({
  page,
  context,
  request,
}) => {
  const login = uniqueLogin('expiry');
  await signUp(page, 'en', login, 'Secret123');

  // Without a usable token or refresh cookie, a protected page sends the user to sign in.
  await context.clearCookies();
  await page.evaluate(() => localStorage.setItem('sessionToken', 'garbage.token.value'));
  await page.goto('/en/admin/account');
  await expect(page).toHaveURL(urlIs('/en/signin'));

  // Signed in again, the session is then revoked from another device ("sign out everywhere"):
  // the next call answers 401, the token is cleared and the notice is shown.
  await page.locator('#login').fill(login);
  await page.locator('#password').fill('Secret123');
  await page.getByRole('main').getByRole('button', { name: texts.en.auth.signin.submit, exact: true }).click();
  await expect(page).toHaveURL(urlIs('/en/admin'));
  // The dashboard's own first calls are answered before the revocation, so that the click below
  // is what meets the 401 (as a rule: see there).
  await settled(page);
  const other = await request.post('/api/auth/login', { data: { login, password: 'Secret123' } });
  const { accessToken } = await other.json();
  const revoked = await request.post('/api/auth/sessions/revoke-all', {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  expect(revoked.ok()).toBe(true);

  // The user's click meets the 401, unless a call of the page's own (a refetch) met it first: then
  // the page is already on its way to sign in, which is what this test is about.
  const openAccount = async () => {
    await page.getByRole('button', { name: login }).click({ timeout: 5_000 });
    await page.getByRole('menuitem', { name: texts.en.layout.user.account }).click({ timeout: 5_000 });
  };
  await openAccount().catch((error: unknown) => {
    if (!urlMatching('/en/signin(\\?.*)?').test(page.url())) throw error;
  });
  await expect(page).toHaveURL(urlIs('/en/signin?message=session'));
  await expect(page.getByText(texts.en.auth.signin.sessionExpired)).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('sessionToken'))).toBeNull();
});
