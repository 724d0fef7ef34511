import type { Page } from '@playwright/test';
import enAccount from '../src/locales/en/account.json' with { type: 'json' };
import ukAccount from '../src/locales/uk/account.json' with { type: 'json' };
import { signUp, sourceWithHttpDestinations } from './support/actions';
import { postLead } from './support/flow';
import { LANGS, type Lang, texts, uniqueLogin } from './support/locales';
import { expect, test } from './support/test';

// Issue 31 part 1: every day is the account's (Kyiv unless set), whatever the browser's zone and
// whatever UTC says. The server's clock is the real one, so the test makes "just after midnight" by
// choosing the account's zone: one where the lead's local time is 00:xx of the day after its UTC day
// (or late on the day before it), as a lead at 00:30 Kyiv time is 22:30 UTC of the day before. With
// Kyiv itself the same holds between 22:00 and 24:00 UTC (winter).
const account = { uk: ukAccount, en: enAccount };

// The browser is far from Kyiv: the page must not take "today" from it.
test.use({ timezoneId: 'America/Los_Angeles' });

/** YYYY-MM-DD of an instant in a zone. */
const dayIn = (at: Date, timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);

/** Zones without daylight saving, by whole hours from UTC (the browser offers no Etc/GMT±N). */
const AHEAD: Record<number, string> = {
  1: 'Africa/Lagos',
  2: 'Africa/Johannesburg',
  3: 'Asia/Riyadh',
  4: 'Asia/Dubai',
  5: 'Asia/Tashkent',
  6: 'Asia/Dhaka',
  7: 'Asia/Bangkok',
  8: 'Asia/Singapore',
  9: 'Asia/Tokyo',
  10: 'Australia/Brisbane',
  11: 'Pacific/Guadalcanal',
  12: 'Pacific/Tarawa',
  13: 'Pacific/Tongatapu',
  14: 'Pacific/Kiritimati',
};
const BEHIND: Record<number, string> = {
  2: 'America/Noronha',
  3: 'America/Sao_Paulo',
  4: 'America/La_Paz',
  5: 'America/Bogota',
  6: 'America/Guatemala',
  7: 'America/Phoenix',
  8: 'Pacific/Pitcairn',
  9: 'Pacific/Gambier',
  10: 'Pacific/Honolulu',
  11: 'Pacific/Pago_Pago',
};

/**
 * A zone in which `at` is on another day than in UTC, with the local time at least an hour from
 * the next midnight: 00:xx of the next day from 10:00 UTC on, 22:xx of the day before earlier.
 */
function zoneAcrossMidnight(at: Date): string {
  const hour = at.getUTCHours();
  return (hour >= 10 ? AHEAD[24 - hour] : BEHIND[hour + 2])!;
}

/** The dashboard chart's rows (its table for screen readers): [day as shown, leads in its bars]. */
async function chartRows(page: Page, lang: Lang): Promise<[string, number][]> {
  await page.goto(`${texts[lang].prefix}/admin`);
  const table = page.getByTestId('leads-chart-table');
  await expect(table.getByRole('row')).toHaveCount(15);
  return table.evaluate((el) =>
    [...el.querySelectorAll('tbody tr')].map((tr) => {
      const cells = [...tr.querySelectorAll('td')].map((td) => Number((td.textContent ?? '').replace(/\D/g, '')));
      return [tr.querySelector('th')?.textContent ?? '', cells.reduce((a, b) => a + b, 0)] as [string, number];
    }),
  );
}

/** A day as the dashboard's table and the guardian's reconciliation spell it, in the page's own Intl. */
const labels = (page: Page, lang: Lang, day: string) =>
  page.evaluate(
    ({ day, locale }) => {
      const at = new Date(`${day}T00:00:00Z`);
      const f = (o: Intl.DateTimeFormatOptions) =>
        new Intl.DateTimeFormat(locale, { ...o, timeZone: 'UTC' }).format(at);
      return {
        chart: f({ weekday: 'short', day: 'numeric', month: 'long' }),
        guardian: f({ weekday: 'short', day: 'numeric', month: 'short' }),
      };
    },
    { day, locale: lang === 'uk' ? 'uk-UA' : 'en-GB' },
  );

/** The days speed to lead puts the account's leads on (the report's API, as its page reads it). */
const speedDays = (page: Page) =>
  page.evaluate(async () => {
    const headers = { authorization: `Bearer ${localStorage.getItem('sessionToken')}` };
    const res = await fetch('/api/report/speed-to-lead/breakdown?days=7', { headers });
    return ((await res.json()).byDay as { day: string; leads: number }[]).map((d) => [d.day, d.leads]);
  });

/** The dashboard, the guardian and speed to lead all put the one lead on `day`, today's row of the chart. */
async function expectLeadOn(page: Page, lang: Lang, day: string, source: string): Promise<void> {
  const label = await labels(page, lang, day);
  const rows = await chartRows(page, lang);
  expect(rows.at(-1)).toEqual([label.chart, 1]);
  expect(rows.slice(0, -1).every(([, n]) => n === 0)).toBe(true);
  await page.goto(`${texts[lang].prefix}/admin/guardian`);
  const row = page.getByTestId('guardian-reconciliation').getByRole('row').filter({ hasText: source });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('cell').first()).toHaveText(label.guardian);
  expect(await speedDays(page)).toEqual([[day, 1]]);
}

for (const lang of LANGS) {
  const t = texts[lang];
  test(`${lang}: a lead just after midnight in the account's zone counts today on the dashboard, the guardian and speed`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await signUp(page, lang, uniqueLogin(`zone-${lang}`), 'Secret123');
    const source = `Night form ${lang}`;
    const { source: sourceId } = await sourceWithHttpDestinations(page, source, [{ name: 'CRM' }]);
    await page.goto(`${t.prefix}/admin/integrations/webhook/${sourceId}`);
    const hookUrl = await page.getByRole('textbox', { name: t.integrations.webhook.url }).inputValue();
    const at = new Date();
    await postLead(hookUrl, { name: 'Olena Kovalenko', phone: '067 123 45 67' });

    // A new account's days are Kyiv's.
    await expectLeadOn(page, lang, dayIn(at, 'Europe/Kyiv'), source);

    // Set a zone in which the lead came just after midnight (or late the evening before) in the settings.
    const zone = zoneAcrossMidnight(at);
    expect(dayIn(at, zone)).not.toBe(dayIn(at, 'UTC'));
    await page.goto(`${t.prefix}/admin/account`);
    const field = page.getByRole('combobox', { name: account[lang].profile.timeZone });
    await expect(field).toBeVisible();
    await expect(page.getByText(account[lang].profile.timeZoneHint)).toBeVisible();
    await field.click();
    const label = zone.replace(/_/g, ' ');
    await field.fill(label);
    await page.locator(`.ant-select-item-option[title="${label}"]`).click();
    await page.getByRole('button', { name: t.common.save }).click();
    await expect(page.getByText(t.common.saved)).toBeVisible();
    await page.reload();
    await expect(page.locator('.ant-form-item').filter({ hasText: account[lang].profile.timeZone })).toContainText(
      label,
    );

    await expectLeadOn(page, lang, dayIn(at, zone), source);
  });
}
