// Issue 17 part 3: a Ukrainian user never sees English. The pages a client sees (the dashboard, the
// integrations list, the picker, a source with a failing destination, the failing destination, the
// lead log, the account pages) carry no Latin word but the names of docs/glossary.md
// (locales/names.json and each connector's names.json), e-mail addresses, addresses and technical tokens. The destination fails
// with the service's own English answer: it stays out of the page's text, folded under
// "Технічні подробиці".
import { type HttpEmulator, startHttpEmulator } from '@leadrelay/connectors/http/emulator';
import type { Page } from '@playwright/test';
import { signUp, sourceWithHttpDestinations } from './support/actions';
import { postLead } from './support/flow';
import { glossary } from './support/glossary';
import { texts, uniqueLogin } from './support/locales';
import { settled } from './support/settled';
import { expect, test } from './support/test';

const t = texts.uk;
const ANSWER = 'Invalid OAuth access token';

let emulator: HttpEmulator;
test.beforeAll(async () => {
  emulator = await startHttpEmulator({ host: '127.0.0.1' });
  emulator.setFault({ status: 401, body: ANSWER });
});
test.afterAll(async () => {
  await emulator?.close();
});

const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// Longest first, so "Google Analytics" goes before "Google"; a name is a whole word, not a part of one.
const NAMES = new RegExp(
  `(?<![\\p{L}\\d])(?:${[...glossary.names, ...glossary.tokens]
    .sort((a, b) => b.length - a.length)
    .map(literal)
    .join('|')})(?![\\p{L}\\d])`,
  'gu',
);

/** The Latin words of a text that no glossary name, address or technical token explains. */
function englishIn(text: string): string[] {
  const rest = text
    .replace(/\S+@\S+\.\S+/g, ' ') // e-mail addresses
    .replace(/https?:\/\/\S+/g, ' ') // addresses
    .replace(NAMES, ' ')
    // A token with a digit, a dot, a slash, a colon, an underscore or a hyphen inside: a host, a
    // field path (utm.source), a sample ID, a code.
    .replace(/\S*[A-Za-z]\S*[\d./:_-]\S*|\S*[\d./:_-]\S*[A-Za-z]\S*/g, ' ');
  // One letter alone is a monogram (the logo's L, an avatar's initial), not a word.
  return [...rest.matchAll(/[A-Za-z]{2,}/g)].map((m) => m[0]);
}

/**
 * What a person reads on the page: its text and the visible elements' labels and placeholders.
 * A code sample and a logo's letters are left out. The icons the app draws are aria-hidden (they sit beside
 * their words); the few that antd draws inside its own components (a password field's eye) still name
 * themselves by their file ("eye-invisible") to screen readers: not counted here, a gap of the library.
 */
async function visibleWords(page: Page): Promise<string> {
  return page.evaluate(() => {
    const labels = [...document.querySelectorAll<HTMLElement>('[aria-label], [title], [placeholder]')]
      // A label inside an aria-hidden part (the chart, read out from its table) is never heard.
      .filter(
        (el) => el.checkVisibility() && !el.matches('.anticon[role="img"]') && !el.closest('[aria-hidden="true"]'),
      )
      .flatMap((el) => ['aria-label', 'title', 'placeholder'].map((a) => el.getAttribute(a) ?? ''));
    // A code sample (a curl command, a JSON body) or a code (a referral code, marked translate="no")
    // is not words; a logo's letters are a picture.
    const hide = document.createElement('style');
    hide.textContent = 'pre, code, [data-logo], [translate="no"] { display: none !important; }';
    document.head.append(hide);
    const text = document.body.innerText;
    hide.remove();
    return [document.title, text, ...labels].join('\n');
  });
}

async function expectUkrainian(page: Page, where: string): Promise<void> {
  await settled(page);
  const text = await visibleWords(page);
  const english = englishIn(text);
  expect(english, `${where}: Latin words outside the glossary in\n${text}`).toEqual([]);
}

test('uk: the pages a client sees carry no English, a service’s English answer only under technical details', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signUp(page, 'uk', uniqueLogin('words'), 'Slova2024x');
  await expectUkrainian(page, 'dashboard, new account');

  // A source with a destination whose service refuses the credentials, in its own English.
  const route = await sourceWithHttpDestinations(page, 'Форма сайту', [{ name: 'Стара CRM', url: emulator.hookUrl }]);
  const ids = { source: route.source, dead: route.destinations[0]! };

  await page.goto(`${t.prefix}/admin/integrations/http/${ids.dead}`);
  await expect(page.locator('.lr-int-subtitle [data-state="broken_auth"]')).toBeVisible();
  const alert = page.getByTestId('state-alert');
  await expect(alert).toContainText(t.integrations.reasons.AUTH);
  // The service's answer is not read out; it waits, folded, under a Ukrainian label.
  const details = alert.getByTestId('reason-details');
  await expect(details.locator('summary')).toHaveText(t.common.technicalDetails);
  await expect(details.locator('code')).toBeHidden();
  await expectUkrainian(page, 'a destination that fails');
  await details.locator('summary').click();
  await expect(details.locator('code')).toHaveText(ANSWER);

  // A lead through the source: its log shows the failed delivery.
  await page.goto(`${t.prefix}/admin/integrations/webhook/${ids.source}`);
  const hookUrl = await page.getByRole('textbox', { name: t.integrations.webhook.url }).inputValue();
  await postLead(hookUrl, { name: 'Олена Петренко', phone: '+380501234567', email: 'olena@example.com' });
  await expectUkrainian(page, 'a source');
  await page.goto(`${t.prefix}/admin/integrations/webhook/${ids.source}?tab=destinations`);
  await expect(page.getByTestId('destination-row')).toHaveCount(1);
  await expectUkrainian(page, 'a source’s destinations');
  await page.goto(`${t.prefix}/admin/integrations/webhook/${ids.source}?tab=leads`);
  await expect(page.getByText('Олена Петренко').first()).toBeVisible();
  await expectUkrainian(page, 'the lead log');

  await page.goto(`${t.prefix}/admin/integrations`);
  await expect(page.locator('[data-state="broken_auth"]').first()).toBeVisible();
  await expectUkrainian(page, 'the integrations list');

  await page.getByRole('button', { name: t.integrations.list.new }).first().click();
  await expect(page.getByRole('dialog', { name: t.integrations.create.title })).toBeVisible();
  await expect(page.locator('.lr-picker-type').first()).toBeVisible();
  await expectUkrainian(page, 'the picker');

  await page.goto(`${t.prefix}/admin`);
  await expect(page.getByText('Олена Петренко').first()).toBeVisible();
  await expectUkrainian(page, 'the dashboard');

  for (const path of ['/admin/account', '/admin/plan', '/admin/billing', '/admin/referral']) {
    await page.goto(`${t.prefix}${path}`);
    await expect(page.locator('main')).toBeVisible();
    await expectUkrainian(page, path);
  }
});

test('the check finds English: a run of Latin words outside the glossary is named', () => {
  expect(englishIn('Доставка не вдалася (Invalid OAuth access token)')).toEqual([
    'Invalid',
    'OAuth',
    'access',
    'token',
  ]);
  expect(englishIn('Вебхуки · Webhook')).toEqual(['Webhook']);
  expect(
    englishIn('L Угоди в amoCRM і Pipedrive, події в Google Analytics 4, olena@example.com, utm.source, 127.0.0.1:9'),
  ).toEqual([]);
});
