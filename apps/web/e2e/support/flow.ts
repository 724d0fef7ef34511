// What the delivery flows share: a webhook source sending to a destination, a lead posted to it as
// a website form would, and an emulator's state read through its control API.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, type Page } from '@playwright/test';
import { texts } from './locales';
import { UUID, urlMatching } from './url';

const run = promisify(execFile);
const t = texts.en;
const i = t.integrations;

/** Opens an antd select by its label and picks the option with this text. */
export async function pick(page: Page, label: string, option: string): Promise<void> {
  await page.getByLabel(label, { exact: true }).click();
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: option })
    .first()
    .click();
}

/** A webhook source (made on screen, in English) sending to the destination; returns its URL. */
export async function sourceTo(page: Page, destination: string): Promise<string> {
  await page.goto(`${t.prefix}/admin/integrations`);
  await page.getByRole('button', { name: i.list.new }).first().click();
  const dialog = page.getByRole('dialog', { name: i.create.title });
  await dialog.locator('label').filter({ hasText: 'Webhook' }).first().click();
  await dialog.getByLabel(i.create.name).fill(`Form to ${destination}`);
  await dialog.getByRole('button', { name: i.create.submit }).click();
  await expect(page).toHaveURL(urlMatching(`/en/admin/integrations/webhook/${UUID}`));
  const hookUrl = await page.getByRole('textbox', { name: i.webhook.url }).inputValue();
  await page.getByRole('tab', { name: /Destinations/ }).click();
  await pick(page, i.destinations.pick, destination);
  await page.getByRole('button', { name: i.destinations.add, exact: true }).click();
  await expect(page.getByTestId('destination-row').filter({ hasText: destination })).toBeVisible();
  return hookUrl;
}

/** Posts a lead to a webhook URL with curl, as a site's form would. */
export async function postLead(hookUrl: string, lead: Record<string, string>): Promise<void> {
  const { stdout } = await run('curl', [
    '-sS',
    '--fail-with-body',
    '-H',
    'Content-Type: application/json',
    '--data',
    JSON.stringify(lead),
    hookUrl,
  ]);
  expect(JSON.parse(stdout)).toMatchObject({ ok: true });
}

/** An emulator's state (GET {url}/__emulator/state, or another control path). */
export async function stateOf<T>(url: string, path = '/__emulator/state'): Promise<T> {
  const res = await fetch(`${url}${path}`);
  return (await res.json()) as T;
}
