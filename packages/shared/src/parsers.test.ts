import { describe, expect, it } from 'vitest';
import { extractFields, type MailView, matchMail, type ParserRules, ZParserRules } from './parsers';

const rules = (raw: unknown): ParserRules => ZParserRules.parse(raw);
const mail = (m: Partial<MailView>): MailView => ({ from: '', subject: '', text: '', html: '', ...m });

describe('labelled lines', () => {
  it('take the usual Ukrainian labels without a rule, whatever apostrophe the form uses', () => {
    const m = mail({
      subject: 'Заявка з сайту',
      text: 'Нова заявка\n\nІм’я: Оксана Бондар\nТелефон: 067 123 45 67\nЕл. пошта: oksana@example.com\nКоментар: Доставка до Львова\n',
    });
    expect(extractFields(rules({}), m).fields).toEqual({
      name: 'Оксана Бондар',
      phone: '067 123 45 67',
      email: 'oksana@example.com',
      comment: 'Доставка до Львова',
    });
  });

  it('read a value on the line after its label, and never take a time or a link for a label', () => {
    const m = mail({ text: 'Телефон отримувача:\n\n+380501234567\nЧас: 10:30\nhttps://example.com/a:b\n' });
    const { fields, pairs } = extractFields(
      rules({ fields: [{ kind: 'label', field: 'phone', label: 'Телефон отримувача' }] }),
      m,
    );
    expect(fields.phone).toBe('+380501234567');
    expect(pairs.map((p) => p.label)).toEqual(['Телефон отримувача', 'Час']);
  });

  it('answer a rule with alternatives by whichever label the mail has, rules before the usual labels', () => {
    const m = mail({ text: 'Name: John Smith\nContact phone: +44 20 7946 0958\nPhone: 000\n' });
    const r = rules({ fields: [{ kind: 'label', field: 'phone', label: 'Мобільний | contact phone' }] });
    expect(extractFields(r, m).fields).toEqual({ phone: '+44 20 7946 0958', name: 'John Smith' });
  });

  it('with the usual labels off, take only what the rules name', () => {
    const m = mail({ text: 'Ім’я: Оксана\nМісто: Одеса\n' });
    const r = rules({ auto: false, fields: [{ kind: 'label', field: 'city', label: 'місто' }] });
    expect(extractFields(r, m).fields).toEqual({ city: 'Одеса' });
  });
});

describe('HTML tables and definition lists', () => {
  it('turn two-cell rows and dt/dd pairs into labelled values, entities decoded', () => {
    const html = `<table><tr><td><b>Покупець:</b></td><td>Олена&nbsp;Петренко</td></tr>
      <tr><th>Сума</th><td>8&nbsp;499 грн</td></tr><tr><td colspan="2">Дякуємо!</td></tr></table>
      <dl><dt>Місто</dt><dd>Київ &amp; область</dd></dl>`;
    const { fields, pairs } = extractFields(
      rules({
        fields: [
          { kind: 'label', field: 'total', label: 'сума' },
          { kind: 'label', field: 'city', label: 'Місто' },
        ],
      }),
      mail({ html }),
    );
    expect(fields).toEqual({ total: '8 499 грн', city: 'Київ & область', name: 'Олена Петренко' });
    expect(pairs).toHaveLength(3);
  });
});

describe('regular expressions', () => {
  it('take the first group from the subject or the body, as the rule says', () => {
    const m = mail({ subject: 'Нове замовлення № 987654321', text: 'Сума замовлення: 3 499 ₴' });
    const r = rules({
      fields: [
        { kind: 'regex', field: 'order_id', pattern: '№\\s*(\\d+)', source: 'subject' },
        { kind: 'regex', field: 'total', pattern: 'сума замовлення:\\s*([\\d ]+)' },
      ],
    });
    expect(extractFields(r, m).fields).toMatchObject({ order_id: '987654321', total: '3 499' });
  });

  it('are refused when they cannot compile, and so are field names a mapping cannot read', () => {
    const bad = ZParserRules.safeParse({ fields: [{ kind: 'regex', field: 'x', pattern: '(unclosed' }] });
    expect(bad.success ? [] : bad.error.issues.map((i) => i.message)).toEqual(['PARSER_REGEX_INVALID']);
    const field = ZParserRules.safeParse({ fields: [{ kind: 'label', field: 'ім’я', label: 'x' }] });
    expect(field.success ? [] : field.error.issues.map((i) => i.message)).toEqual(['PARSER_FIELD_INVALID']);
  });
});

describe('which mails a parser takes', () => {
  const r = rules({ match: { from: 'prom.ua', subject: 'замовлення', phrase: 'Нова Пошта' } });
  const order = mail({
    from: 'Prom.ua <no-reply@prom.ua>',
    subject: 'Нове ЗАМОВЛЕННЯ №1',
    html: '<p>Доставка: нова пошта</p>',
  });

  it('takes a mail meeting every condition, case aside, the phrase found in the HTML too', () => {
    expect(matchMail(r, order)).toEqual({ matched: true });
  });

  it('says which condition a mail fails', () => {
    expect(matchMail(r, { ...order, from: 'spam@example.com' })).toEqual({ matched: false, reason: 'MATCH_FROM' });
    expect(matchMail(r, { ...order, subject: 'Відгук' })).toEqual({ matched: false, reason: 'MATCH_SUBJECT' });
    expect(matchMail(r, { ...order, html: '<p>Самовивіз</p>' })).toEqual({ matched: false, reason: 'MATCH_PHRASE' });
    expect(matchMail(rules({}), mail({}))).toEqual({ matched: true });
  });
});

describe('names from the mail and the rules are data (issue 27)', () => {
  const MEMBERS = [...Object.getOwnPropertyNames(Object.prototype), ...Object.getOwnPropertyNames(Function.prototype)];

  it('extracts into a field named like a built-in member (constructor, __proto__, toString…)', () => {
    for (const field of MEMBERS.filter((name) => /^[A-Za-z0-9_.-]{1,64}$/.test(name))) {
      const m = mail({ text: `Місто: Київ\n` });
      const { fields } = extractFields(rules({ auto: false, fields: [{ kind: 'label', field, label: 'Місто' }] }), m);
      expect(Object.getPrototypeOf(fields), field).toBe(Object.prototype);
      expect(Object.entries(fields), field).toEqual([[field, 'Київ']]);
    }
  });
});
