import enAccount from '../src/locales/en/account.json' with { type: 'json' };
import ukAccount from '../src/locales/uk/account.json' with { type: 'json' };
import { signUp } from './support/actions';
import { LANGS, uniqueLogin } from './support/locales';
import { expectFits, forPicture } from './support/screens';
import { expect, test } from './support/test';

// Issue 34: on /admin/account a person makes an API key (shown once), a program uses it as
// `Authorization: Bearer <key>`, and revoking it shuts the program out at once.
const account = { uk: ukAccount, en: enAccount };
const WIDTHS = [375, 1440];

for (const lang of LANGS) {
  const words = account[lang].apiKeys;
  for (const width of WIDTHS) {
    test(`${lang} at ${width}px: make an API key, use it, revoke it`, async ({ page }) => {
      await page.setViewportSize({ width, height: width < 768 ? 812 : 900 });
      await signUp(page, lang, uniqueLogin(`keys-${lang}-${width}`), 'Secret123', '/admin/account');
      const card = page.locator('.lr-api-keys');
      await expect(card.getByText(words.empty)).toBeVisible();

      await card.getByRole('button', { name: words.create }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel(words.name).fill('CRM sync');
      await dialog.getByRole('radio', { name: words.scopes.write }).check();
      await expectFits(page, `api-key-create-${lang}-${width}`, { fullPage: false });
      await dialog.getByRole('button', { name: words.create }).click();

      const shown = dialog.getByRole('textbox');
      await expect(shown).toHaveValue(/^lr_[A-Za-z0-9]{8}_[A-Za-z0-9_-]{43}$/);
      await expect(dialog.getByText(words.shownOnce)).toBeVisible();
      const key = await shown.inputValue();
      await expectFits(page, `api-key-shown-${lang}-${width}`, { fullPage: false });

      // A program with the key reads the account, and may write with a read-and-write key.
      const headers = { authorization: `Bearer ${key}` };
      expect((await page.request.get('/api/integrations', { headers })).status()).toBe(200);
      expect((await page.request.patch('/api/account', { headers, data: { company: 'Keyed' } })).status()).toBe(200);

      await dialog.getByRole('button', { name: words.done }).click();
      await expect(dialog).toBeHidden();
      const row = width < 768 ? card.getByTestId('api-key-card') : card.getByRole('row', { name: /CRM sync/ });
      await expect(row).toContainText(key.slice(0, 11));
      await expect(row).not.toContainText(key.slice(12));
      await page.reload();
      // Used a moment ago: the list says when (not "never").
      await expect(row).not.toContainText(words.never);
      await forPicture(() => page.locator('.lr-api-keys').scrollIntoViewIfNeeded());
      await expectFits(page, `api-keys-${lang}-${width}`);

      await row.getByRole('button', { name: words.revoke }).click();
      await page.getByRole('tooltip').getByRole('button', { name: words.revoke }).click();
      await expect(card.getByText(words.empty)).toBeVisible();
      const refused = await page.request.get('/api/integrations', { headers });
      expect(refused.status()).toBe(401);
      expect((await refused.json()).code).toBe('UNAUTHORIZED');
    });
  }
}
