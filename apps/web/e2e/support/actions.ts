import { expect, type Page } from '@playwright/test';
import { type Lang, texts } from './locales';
import { linkTo, waitForMail } from './mail';

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
  await expect(page).toHaveURL(new RegExp(`${t.prefix}/admin$`));
}

export async function signIn(page: Page, lang: Lang, login: string, password: string): Promise<void> {
  const t = texts[lang];
  await page.locator('#login').fill(login);
  await page.locator('#password').fill(password);
  await page.getByRole('main').getByRole('button', { name: t.auth.signin.submit, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`${t.prefix}/admin$`));
}

export async function signOut(page: Page, lang: Lang, login: string): Promise<void> {
  const t = texts[lang];
  await page.getByRole('button', { name: login }).click();
  await page.getByRole('menuitem', { name: t.layout.user.logout }).click();
  await expect(page).toHaveURL(new RegExp(`${t.prefix}/signin`));
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
