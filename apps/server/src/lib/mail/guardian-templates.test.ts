import { facebook } from '@leadrelay/connectors';
import { describe, expect, it } from 'vitest';
import { credentialExpiryMail, droughtMail, duration, weeklyReportMail } from './guardian-templates';

const ctx = (lang: 'uk' | 'en') => ({ lang, publicUrl: 'https://leadrelay.example' });
const link = 'https://leadrelay.example/admin/guardian';
const FACEBOOK_MAIL = facebook.connections!.mail;

describe("the guardian's mails", () => {
  it('tell a drought in Kyiv time, with the expected leads, in both languages and as text', async () => {
    const notice = { name: 'Сайт', silentSince: new Date('2026-03-10T07:40:00Z'), expected: 12.4, link };
    const uk = await droughtMail(ctx('uk'), notice);
    expect(uk.subject).toBe('LeadRelay: з «Сайт» перестали надходити ліди');
    // 07:40 UTC is 09:40 in Kyiv in winter time.
    expect(uk.text).toContain('надійшов 10 бер. 2026 р., 09:40');
    expect(uk.text).toContain('близько 12,');
    expect(uk.text.split('\n')).toContain(link);
    const en = await droughtMail(ctx('en'), notice);
    expect(en.text).toContain('came 10 Mar 2026, 09:40');
    expect(en.text).toContain('about 12 should have come');
    expect(en.html).toContain('lang="en"');
  });

  it('warn of an ending credential with the day it ends and how it is renewed', async () => {
    const at = new Date('2026-03-21T09:30:00Z');
    const amo = await credentialExpiryMail(ctx('uk'), {
      name: 'Продажі',
      service: 'amoCRM',
      expiresAt: at,
      renewal: 'refresh',
      link,
    });
    expect(amo.subject).toBe('LeadRelay: доступ до «Продажі» спливає 21 березня');
    expect(amo.text).toContain('Доступ подовжується сам');
    const fb = await credentialExpiryMail(ctx('en'), {
      name: 'Olena',
      service: 'Facebook',
      expiresAt: at,
      renewal: { login: { uk: FACEBOOK_MAIL.uk.renew, en: FACEBOOK_MAIL.en.renew } },
      link,
    });
    expect(fb.text).toContain('(Facebook) is valid until 21 Mar 2026, 11:30');
    expect(fb.text).toContain('about 60 days');
  });

  it('write reaction times in minutes and hours, and say when there were none', () => {
    expect(duration('uk', 7 * 60_000)).toBe('7 хв');
    expect(duration('en', 65 * 60_000)).toBe('1 h 5 min');
    expect(duration('uk', null)).toBe('немає');
  });

  it('report a week without reactions without inventing reaction times', async () => {
    const mail = await weeklyReportMail(ctx('uk'), {
      from: new Date('2026-03-09T00:00:00+02:00'),
      to: new Date('2026-03-15T00:00:00+02:00'),
      totals: { received: 3, delivered: 3, held: 0, failed: 0 },
      speed: { reacted: 0, medianMs: null, p90Ms: null, within: { '5': 0, '15': 0, '60': 0 }, neverTaken: 3 },
      sources: [{ name: 'Сайт', received: 3, delivered: 3, held: 0, failed: 0 }],
      link,
    });
    expect(mail.text).toContain('менеджери не відмітили реакції');
    expect(mail.text).not.toContain('медіана');
    expect(mail.text).toContain('«Сайт»: отримано 3, доставлено 3, утримано 0, не доставлено 0.');
  });
});
