import { expect, type Frame, type Page } from '@playwright/test';
import { baseURL } from '../../playwright.config';
import { type Lang, texts } from './locales';
import { linkTo, waitForMail } from './mail';
import { settled } from './settled';
import { urlIs } from './url';

export async function signUpAndConfirm(page: Page, lang: Lang, login: string, password: string): Promise<void> {
  const t = texts[lang];
  await page.goto(`${t.prefix}/signup`);
  await page.locator('#login').fill(login);
  await page.locator('#password').fill(password);
  await page.locator('#passwordConfirm').fill(password);
  const since = Date.now();
  await page.getByRole('button', { name: t.auth.signup.submit }).click();
  await expect(page.getByText(t.auth.signup.checkEmailTitle)).toBeVisible();

  const mail = await waitForMail(login, since);
  await page.goto(linkTo(mail, new RegExp(`^${t.prefix}/confirm$`)));
  await expect(page).toHaveURL(urlIs(`${t.prefix}/admin`));
}

/**
 * A new confirmed account, signed in in this page's browser, made through the API the sign-up page
 * calls (create-account, then the token of the mailed link, both with this browser's cookies), for a
 * test about what comes after sign-up; the sign-up pages have their own tests (auth-flow.spec.ts,
 * face.spec.ts). Ends, as `signUpAndConfirm` does, on the dashboard (or on `path`, a page of the
 * account, so as not to open the dashboard only to leave it) with the session in the page.
 */
export async function signUp(page: Page, lang: Lang, login: string, password: string, path = '/admin'): Promise<void> {
  const since = Date.now();
  const created = await page.request.post('/api/auth/create-account', {
    data: { login, password, passwordConfirm: password, lang },
  });
  expect(created.status(), await created.text()).toBe(201);
  const link = linkTo(await waitForMail(login, since), new RegExp(`^${texts[lang].prefix}/confirm$`));
  const confirmed = await page.request.post('/api/auth/confirm-email', {
    data: { token: new URL(link).searchParams.get('token') },
  });
  // Signed in (a refresh cookie in this browser), not "confirmed elsewhere".
  expect(await confirmed.json()).toHaveProperty('accessToken');
  await enterWithSession(page, lang, path);
}

/**
 * Signs in through the API the sign-in page calls, in this page's browser, for a test about what
 * comes after; the sign-in page has its own tests (auth-flow.spec.ts, enter.spec.ts). Ends, as
 * `signIn` does, on the dashboard (or on `path`, a page of the account).
 */
export async function signInByApi(
  page: Page,
  lang: Lang,
  login: string,
  password: string,
  path = '/admin',
): Promise<void> {
  const answer = await page.request.post('/api/auth/login', { data: { login, password } });
  expect(answer.status(), await answer.text()).toBe(200);
  await enterWithSession(page, lang, path);
}

/**
 * A page of the account (one that needs a session: under /admin), opened with only the refresh
 * cookie: the app's silent refresh signs the page in.
 */
async function enterWithSession(page: Page, lang: Lang, path: string): Promise<void> {
  const t = texts[lang];
  await page.goto(`${t.prefix}${path}`);
  await expect(page).toHaveURL(urlIs(`${t.prefix}${path}`));
  // The token the page's own API calls (and a test's, through the page) carry.
  await expect.poll(() => page.evaluate(() => localStorage.getItem('sessionToken'))).not.toBeNull();
}

export async function signIn(page: Page, lang: Lang, login: string, password: string): Promise<void> {
  const t = texts[lang];
  await page.locator('#login').fill(login);
  await page.locator('#password').fill(password);
  await page.getByRole('main').getByRole('button', { name: t.auth.signin.submit, exact: true }).click();
  await expect(page).toHaveURL(urlIs(`${t.prefix}/admin`));
}

export async function signOut(page: Page, lang: Lang, login: string): Promise<void> {
  const t = texts[lang];
  await page.getByRole('button', { name: login }).click();
  // Every address the tab shows from the click on: a detour through the "session ended" notice
  // may be brief, so the final address alone would not tell.
  const visited: string[] = [];
  const record = (frame: Frame) => {
    if (frame === page.mainFrame()) visited.push(frame.url());
  };
  page.on('framenavigated', record);
  await page.getByRole('menuitem', { name: t.layout.user.logout }).click();
  // Spec section 2: logout goes to /signin, a deliberate end and not an expired session.
  await expect(page).toHaveURL(urlIs(`${t.prefix}/signin`));
  await expect(page.getByRole('heading', { name: t.auth.signin.title })).toBeVisible();
  await settled(page);
  page.off('framenavigated', record);
  expect(page.url()).toMatch(urlIs(`${t.prefix}/signin`));
  await expect(page.getByText(t.auth.signin.sessionExpired)).toHaveCount(0);
  expect([...new Set(visited)]).toEqual([`${baseURL}${t.prefix}/signin`]);
}

/** The "new integration" dialog that is open: picks the type, names it, creates it. */
export async function createInDialog(page: Page, typeName: string, name: string): Promise<void> {
  const i = texts.en.integrations;
  const dialog = page.getByRole('dialog', { name: i.create.title });
  await dialog.locator('label').filter({ hasText: typeName }).first().click();
  await dialog.getByLabel(i.create.name).fill(name);
  await dialog.getByRole('button', { name: i.create.submit }).click();
  await expect(dialog).toBeHidden();
}

/**
 * Through the API, as the signed-in user of the page: a webhook source named `source` sending to
 * an http destination per entry of `destinations` (connected to its `url`, or left without one).
 * For a test about what comes after; the screens that make them have their own tests.
 */
export async function sourceWithHttpDestinations(
  page: Page,
  source: string,
  destinations: { name: string; url?: string }[],
): Promise<{ source: string; destinations: string[] }> {
  return page.evaluate(
    async ({ source, destinations }) => {
      const headers = {
        authorization: `Bearer ${localStorage.getItem('sessionToken')}`,
        'content-type': 'application/json',
      };
      const post = async (body: object) =>
        (await (await fetch('/api/integrations', { method: 'POST', headers, body: JSON.stringify(body) })).json())
          ._id as string;
      const sourceId = await post({ type: 'webhook', name: source });
      const ids: string[] = [];
      for (const d of destinations) {
        const id = await post({ type: 'http', name: d.name });
        if (d.url) {
          await fetch(`/api/admin/integration/${id}/connect`, {
            method: 'PUT',
            headers,
            body: JSON.stringify({ settings: { url: d.url } }),
          });
        }
        ids.push(id);
      }
      await fetch(`/api/integrations/${sourceId}/update`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({ destination: ids }),
      });
      return { source: sourceId, destinations: ids };
    },
    { source, destinations },
  );
}
