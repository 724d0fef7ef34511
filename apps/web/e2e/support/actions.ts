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
