import { connectorCodes, facebook } from '@leadrelay/connectors';
import { connectorNames, namesPattern } from '@leadrelay/connectors/glossary';
import { LOCALES, type Locale } from '@leadrelay/shared';
import { describe, expect, it } from 'vitest';
import glossary from '../../../../web/src/locales/names.json' with { type: 'json' };
import { ALL_REASON_CODES } from '../error-codes';
import { MAIL_CATALOGUES } from './i18n';
import { MAIL_PREVIEW_NAMES, MAIL_PREVIEWS } from './previews';
import { confirmEmailMail, connectionBrokenMail, integrationBrokenMail, renewalPaidMail } from './templates';

const PUBLIC_URL = 'https://leadrelay.example';
const ctx = (lang: Locale) => ({ lang, publicUrl: PUBLIC_URL });
/** The HTML as a person sees it: tags dropped, entities read. */
const visibleText = (html: string) =>
  html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<(style|title)[\s\S]*?<\/\1>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
const hrefs = (html: string) => [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));

describe.each(MAIL_PREVIEW_NAMES)('the %s mail', (name) => {
  it.each(LOCALES)('is drawn in %s as HTML and text, both carrying its one action link', async (lang) => {
    const mail = await MAIL_PREVIEWS[name](ctx(lang));
    const other = await MAIL_PREVIEWS[name](ctx(lang === 'uk' ? 'en' : 'uk'));
    expect(mail.subject).not.toBe(other.subject);
    expect(mail.text).not.toBe(other.text);
    expect(mail.link).toMatch(new RegExp(`^${PUBLIC_URL}${lang === 'en' ? '/en/' : '/(?!en/)'}`));
    expect(mail.html).toMatch(/^<!DOCTYPE html/);
    expect(mail.html).toContain(`lang="${lang}"`);
    // The button and the link written out below it, and the product's address in the footer.
    expect(hrefs(mail.html).filter((h) => h === mail.link)).toHaveLength(2);
    expect(visibleText(mail.html)).toContain(mail.link);
    expect(hrefs(mail.html)).toContain(PUBLIC_URL);
    // The text part: the link on a line of its own, the footer, no markup.
    expect(mail.text.split('\n')).toContain(mail.link);
    expect(mail.text.split('\n')).toContain(PUBLIC_URL);
    expect(mail.text).not.toMatch(/<[a-z]/i);
    if (lang === 'uk') expect(`${mail.subject}\n${mail.text}`).not.toMatch(/\b(the|and|your|you|to)\b/i);
  });
});

describe('mail text', () => {
  it('greets a new account in its language, with the link valid for 48 hours', async () => {
    const link = `${PUBLIC_URL}/confirm?token=abc`;
    const uk = await confirmEmailMail(ctx('uk'), link);
    expect(uk.subject).toBe('Підтвердіть e-mail для LeadRelay');
    expect(uk.text).toContain('Посилання дійсне 48 годин.');
    expect(visibleText(uk.html)).toContain('Підтвердити e-mail');
    const en = await confirmEmailMail(ctx('en'), `${PUBLIC_URL}/en/confirm?token=abc`);
    expect(en.subject).toBe('Confirm your e-mail for LeadRelay');
    expect(visibleText(en.html)).toContain('Confirm e-mail');
  });

  it('shows what a user typed as text: an integration named <script> never becomes markup', async () => {
    const name = '<script>alert(1)</script> & "Co"';
    const reason = '<img src=x onerror=alert(2)>';
    for (const lang of LOCALES) {
      const mail = await integrationBrokenMail(ctx(lang), {
        name,
        reason,
        retryAt: null,
        link: `${PUBLIC_URL}/admin/integrations/http/1`,
      });
      expect(mail.html).not.toContain('<script>');
      expect(mail.html).not.toContain('<img');
      expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot;');
      expect(visibleText(mail.html)).toContain(name);
      // A reason that is no code of ours is told as "an error we could not recognise", never quoted.
      expect(visibleText(mail.html)).not.toContain(reason);
      expect(visibleText(mail.html)).toContain(MAIL_CATALOGUES[lang]['reason.UNKNOWN']);
      // The subject and the text part are plain text: the name as typed.
      expect(mail.subject).toContain(name);
      expect(mail.text).not.toContain(reason);
    }
  });

  it('escapes a link into an attribute rather than letting it break out', async () => {
    const mail = await connectionBrokenMail(ctx('uk'), facebook.connections!.mail, {
      name: 'Page',
      reason: 'FB_TOKEN_EXPIRED',
      link: `${PUBLIC_URL}/admin/integrations/facebook?a=1&b="><script>`,
    });
    expect(mail.html).not.toContain('"><script>');
    expect(hrefs(mail.html)).toContain(`${PUBLIC_URL}/admin/integrations/facebook?a=1&b=&quot;&gt;&lt;script&gt;`);
  });

  it('says when deliveries are tried again, in UTC and the language', async () => {
    const alert = { name: 'CRM', reason: 'HTTP 503', retryAt: new Date('2026-03-14T09:30:00Z'), link: PUBLIC_URL };
    expect((await integrationBrokenMail(ctx('uk'), alert)).text).toContain(
      'наступна спроба — 14 бер. 2026 р., 09:30 UTC',
    );
    expect((await integrationBrokenMail(ctx('en'), alert)).text).toContain('we try again at 14 Mar 2026, 09:30 UTC');
    const reconnect = await integrationBrokenMail(ctx('uk'), { ...alert, retryAt: null });
    expect(reconnect.text).toContain('Підключіть її заново');
    expect(reconnect.text).toContain('Причина: Помилка на боці сервера. Код відповіді: HTTP 503.');
  });

  it('writes a paid-until date as a date of the language', async () => {
    const uk = await renewalPaidMail(ctx('uk'), 'Бізнес', '2026-04-14', `${PUBLIC_URL}/admin/billing`);
    expect(uk.text).toContain('Його сплачено до 14 квітня 2026 р.');
    const en = await renewalPaidMail(ctx('en'), 'Business', '2026-04-14', `${PUBLIC_URL}/en/admin/billing`);
    expect(en.text).toContain('It is paid until 14 April 2026.');
  });
});

describe('the broken-integration mail in Ukrainian', () => {
  // Product and service names stay as they are (docs/glossary.md: the web's names.json and every
  // connector's), and UTC; any other Latin word is English.
  const NAMES = namesPattern([...glossary.names, ...connectorNames(), 'UTC']);
  const stored = (code: string) => (code === 'UNKNOWN' ? 'Invalid OAuth access token' : `${code}: the raw detail text`);

  it.each(ALL_REASON_CODES)(
    'tells the reason %s in Ukrainian, with no raw code and no English sentence',
    async (code) => {
      const mail = await integrationBrokenMail(ctx('uk'), {
        name: 'CRM',
        reason: stored(code),
        retryAt: null,
        link: `${PUBLIC_URL}/admin/integrations/http/1`,
      });
      expect(
        mail.text.split('\n').some((l) => /^Причина: \S/.test(l)),
        'the reason line',
      ).toBe(true);
      for (const text of [mail.text, visibleText(mail.html)]) {
        expect(text).not.toContain(code === 'UNKNOWN' ? 'Invalid OAuth' : code);
        expect(text).not.toContain('raw detail');
        expect(
          text
            .replace(/(https?:\/\/)?[\w.-]+\.example\S*/g, '')
            .replace(NAMES, '')
            .match(/[A-Za-z]{3,}/g),
        ).toBeNull();
      }
    },
  );

  it('tells a connector’s own reason in its folder’s words, in the reader’s language', async () => {
    const alert = { name: 'CRM', retryAt: null, link: PUBLIC_URL };
    let told = 0;
    for (const codes of connectorCodes.values()) {
      for (const code of codes.reasons) {
        for (const lang of LOCALES) {
          const sentence = codes.words[lang].mail?.[code];
          if (!sentence) continue;
          const mail = await integrationBrokenMail(ctx(lang), { ...alert, reason: `${code}: the raw detail text` });
          expect(mail.text, `${lang} ${code}`).toContain(sentence);
          told++;
        }
      }
    }
    expect(told).toBeGreaterThan(20);
    const uk = await integrationBrokenMail(ctx('uk'), { ...alert, reason: 'USPACY_REFRESH_FAILED' });
    expect(uk.text).toContain(connectorCodes.get('uspacy')!.words.uk.mail!.USPACY_REFRESH_FAILED);
  });

  it('keeps the HTTP status and the host of a coded reason, in words of the language', async () => {
    const alert = { name: 'CRM', retryAt: null, link: PUBLIC_URL };
    const timeout = await integrationBrokenMail(ctx('uk'), {
      ...alert,
      reason: 'TIMEOUT: no answer from crm.example.com within 10000 ms',
    });
    expect(timeout.text).toContain('Причина: Сервер crm.example.com не відповів за 10 с.');
    const en = await integrationBrokenMail(ctx('en'), { ...alert, reason: 'HTTP 401: invalid_grant' });
    expect(en.text).toContain('What went wrong: The server refused the authorisation. Answer code: HTTP 401.');
    expect(en.text).not.toContain('invalid_grant');
  });
});
