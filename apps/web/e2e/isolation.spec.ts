// A worker keeps its browser context from one test to the next (support/test.ts): these two tests,
// run in order in one worker, show that the second starts as a new browser would, signed out, with
// nothing of the first but the browser's cache.
import type { Page } from '@playwright/test';
import { signUp } from './support/actions';
import { texts, uniqueLogin } from './support/locales';
import { expect, test } from './support/test';
import { urlIs } from './support/url';

test.describe.configure({ mode: 'serial' });

const uk = texts.uk;
const clipboardPermission = (page: Page) =>
  page.evaluate(() => navigator.permissions.query({ name: 'clipboard-read' as PermissionName }).then((p) => p.state));
const elsewhere = (baseURL: string) => baseURL.replace('127.0.0.1', 'localhost');

test('a test leaves a session, site data on two origins, a permission, routes and a phone-sized tab behind', async ({
  page,
  context,
  baseURL,
}) => {
  await signUp(page, 'uk', uniqueLogin('isolation'), 'Isolation123');
  await page.evaluate(() => {
    localStorage.setItem('left-behind', '1');
    sessionStorage.setItem('left-behind', '1');
  });
  await context.grantPermissions(['clipboard-read']);
  await context.route('**/api/news**', (route) => route.abort());
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto(`${elsewhere(baseURL as string)}/api/health`);
  await page.evaluate(() => localStorage.setItem('left-behind', '1'));
  expect(await clipboardPermission(page)).toBe('granted');
  expect((await context.cookies()).length).toBeGreaterThan(0);
  await page.route('**/api/health', (route) => route.abort());
});

test('the next test in the worker starts signed out, with none of it', async ({ page, context, baseURL }) => {
  expect(await context.cookies()).toEqual([]);
  expect(context.pages()).toEqual([page]);
  await page.goto(`${elsewhere(baseURL as string)}/api/health`);
  expect(await page.evaluate(() => localStorage.getItem('left-behind'))).toBeNull();
  expect(await page.evaluate(() => [innerWidth, innerHeight])).toEqual([1280, 720]);
  // The config's options hold in the kept context too: less motion, as every test's browser asks.
  expect(await page.evaluate(() => matchMedia('(prefers-reduced-motion: reduce)').matches)).toBe(true);
  expect(await clipboardPermission(page)).not.toBe('granted');

  await page.goto(`${uk.prefix}/admin`);
  await expect(page).toHaveURL(urlIs(`${uk.prefix}/signin`));
  expect(await page.evaluate(() => [localStorage.length, sessionStorage.length])).toEqual([0, 0]);
  const news = await page.evaluate(() =>
    fetch('/api/news').then(
      (answer) => answer.status,
      () => 0,
    ),
  );
  expect(news).not.toBe(0);
});
