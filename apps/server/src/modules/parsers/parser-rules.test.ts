// The rules on real-looking mails as they arrive (MIME, charsets, HTML-only, attachments): what a
// business pastes as its sample is what these fixtures are (apps/server/fixtures/parsers).
import { readFileSync } from 'node:fs';
import { extractFields, matchMail, ZParserRules } from '@leadrelay/shared';
import { describe, expect, it } from 'vitest';
import { checkShape, decodeMail, decodeSample, MailRefusal } from './parser-mime';

const fixture = (name: string) => readFileSync(new URL(`../../../fixtures/parsers/${name}`, import.meta.url));
const rules = (raw: unknown) => ZParserRules.parse(raw);

describe('a Prom.ua order mail (HTML only, a table)', () => {
  it('yields the buyer, phone, e-mail and comment by the usual labels, and the order number and total by rules', async () => {
    const { view, messageId, attachments } = await decodeMail(fixture('prom-order.eml'));
    expect(view.subject).toBe('Нове замовлення №314159265 на Prom.ua');
    expect(messageId).toBe('<order-314159265@prom.ua>');
    expect(attachments).toEqual([]);
    const r = rules({
      match: { from: 'prom.ua', subject: 'замовлення' },
      fields: [
        { kind: 'regex', field: 'order_id', pattern: '№\\s*(\\d+)', source: 'subject' },
        { kind: 'label', field: 'total', label: 'Сума' },
        { kind: 'label', field: 'product', label: 'Товар' },
      ],
    });
    expect(matchMail(r, view)).toEqual({ matched: true });
    expect(extractFields(r, view).fields).toEqual({
      order_id: '314159265',
      total: '8 499 грн',
      product: 'Кавоварка ріжкова Delonghi EC 685 × 1',
      name: 'Олена Петренко',
      phone: '+38 (067) 123-45-67',
      email: 'olena.petrenko@example.com',
      comment: 'Зателефонуйте після 18:00, будь ласка',
    });
  });
});

describe('a Rozetka order mail (text and HTML, a PDF attached)', () => {
  it('reads its own labels, a value on the next line, and lists the attachment without reading it', async () => {
    const { view, attachments } = await decodeMail(fixture('rozetka-order.eml'));
    expect(attachments).toEqual([{ filename: 'invoice-987654321.pdf', contentType: 'application/pdf', size: 21 }]);
    const r = rules({
      match: { from: 'rozetka.com.ua' },
      fields: [
        { kind: 'label', field: 'name', label: 'Отримувач' },
        { kind: 'label', field: 'phone', label: 'Телефон отримувача' },
        { kind: 'regex', field: 'total', pattern: 'Сума замовлення:\\s*([\\d\\s]+₴)' },
        { kind: 'regex', field: 'order_id', pattern: '№\\s*(\\d+)', source: 'any' },
      ],
    });
    expect(extractFields(r, view).fields).toEqual({
      name: 'Іван Іваненко',
      phone: '+380501234567',
      total: '3 499 ₴',
      order_id: '987654321',
    });
    // Not a Prom mail: a Prom parser leaves it alone.
    expect(matchMail(rules({ match: { from: 'prom.ua' } }), view)).toEqual({ matched: false, reason: 'MATCH_FROM' });
  });
});

describe('mails in old Cyrillic encodings', () => {
  it('decodes a windows-1251 contact form, Ukrainian letters intact', async () => {
    const { view } = await decodeMail(fixture('form-windows-1251.eml'));
    expect(view.subject).toBe('Заявка з сайту');
    expect(view.from).toContain('Сайт');
    expect(extractFields(rules({}), view).fields).toEqual({
      name: 'Петро Ґудзь',
      phone: '067-765-43-21',
      comment: 'Передзвоніть, будь ласка, щодо ціни на їжака',
    });
  });

  it('decodes a KOI8-U call-tracking report (quoted-printable)', async () => {
    const { view } = await decodeMail(fixture('call-koi8-u.eml'));
    expect(view.subject).toBe('Пропущений дзвінок');
    const r = rules({
      fields: [
        { kind: 'label', field: 'phone', label: 'Номер клієнта' },
        { kind: 'label', field: 'utm_source', label: 'Джерело' },
      ],
    });
    expect(extractFields(r, view).fields).toEqual({ phone: '0931112233', utm_source: 'google / cpc' });
  });
});

describe('an English contact form', () => {
  it('yields name, phone, e-mail and message with no rules at all', async () => {
    const { view } = await decodeMail(fixture('contact-form-en.eml'));
    expect(extractFields(rules({}), view).fields).toEqual({
      name: 'John Smith',
      phone: '+44 20 7946 0958',
      email: 'John.Smith@Example.co.uk',
      comment: 'Please send a quote for 20 units.',
    });
  });
});

describe('a pasted sample', () => {
  it('is decoded as a mail when it starts with headers, else taken as its body (HTML when tagged)', async () => {
    expect((await decodeSample(fixture('prom-order.eml').toString('utf8'))).subject).toContain('314159265');
    expect(await decodeSample('Ім’я: Оля\nТелефон: 0671234567')).toMatchObject({
      text: 'Ім’я: Оля\nТелефон: 0671234567',
    });
    expect(await decodeSample('<table><tr><td>Телефон</td><td>1</td></tr></table>')).toMatchObject({ text: '' });
  });
});

describe('mail that is not a mail, or a bomb', () => {
  const refusal = (raw: Buffer) => {
    try {
      checkShape(raw);
      return null;
    } catch (error) {
      return (error as MailRefusal).reason;
    }
  };

  it('refuses text without headers as malformed', async () => {
    expect(refusal(Buffer.from('\u0000\u0001garbage with no headers at all\r\n'))).toBe('MAIL_MALFORMED');
    await expect(decodeMail(Buffer.from('just words'))).rejects.toBeInstanceOf(MailRefusal);
  });

  it('refuses a header block past 64 KiB', () => {
    const huge = Buffer.from(`Subject: x\r\n${'X-Junk: '.concat('a'.repeat(998), '\r\n').repeat(80)}`);
    expect(refusal(huge)).toBe('MAIL_HEADERS_TOO_LARGE');
  });

  it('refuses parts nested beyond any real mail', () => {
    let body = 'Телефон: 1';
    for (let depth = 0; depth < 40; depth++) {
      body = `Content-Type: multipart/mixed; boundary="b${depth}"\r\n\r\n--b${depth}\r\n${body}\r\n--b${depth}--`;
    }
    expect(refusal(Buffer.from(`From: a@b.c\r\nSubject: bomb\r\n${body}`))).toBe('MAIL_TOO_DEEP');
  });

  it('takes a real mail', () => {
    expect(refusal(fixture('rozetka-order.eml'))).toBeNull();
  });
});
