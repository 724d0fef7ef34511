import { describe, expect, it } from 'vitest';
import { countSms, isGsm7, renderSmsTemplate, unknownPlaceholders } from './sms';

const latin = (n: number) => 'a'.repeat(n);
const cyrillic = (n: number) => 'ж'.repeat(n);

describe('SMS part counter', () => {
  it('counts Latin text in GSM-7 parts: 160 in one, 153 per part once split', () => {
    expect(countSms('')).toMatchObject({ encoding: 'GSM-7', units: 0, parts: 0 });
    expect(countSms(latin(160))).toMatchObject({ encoding: 'GSM-7', parts: 1, remaining: 0, perPart: 160 });
    expect(countSms(latin(161))).toMatchObject({ parts: 2, perPart: 153, remaining: 153 * 2 - 161 });
    expect(countSms(latin(306)).parts).toBe(2);
    expect(countSms(latin(307)).parts).toBe(3);
  });

  it('counts Cyrillic in UCS-2 parts: 70 in one, 67 per part once split', () => {
    expect(countSms(cyrillic(70))).toMatchObject({ encoding: 'UCS-2', parts: 1, remaining: 0, perPart: 70 });
    expect(countSms(cyrillic(71))).toMatchObject({ encoding: 'UCS-2', parts: 2, perPart: 67 });
    expect(countSms(cyrillic(134)).parts).toBe(2);
    expect(countSms(cyrillic(135)).parts).toBe(3);
  });

  it('one Ukrainian letter in Latin text makes the whole message UCS-2', () => {
    const text = `${latin(100)}ї`;
    expect(isGsm7(text)).toBe(false);
    expect(countSms(text)).toMatchObject({ encoding: 'UCS-2', units: 101, parts: 2 });
  });

  it('counts GSM-7 extension characters (€ [ ] { } ^ ~ | \\) double', () => {
    expect(countSms('€')).toMatchObject({ encoding: 'GSM-7', units: 2 });
    expect(countSms(`${latin(158)}€`)).toMatchObject({ units: 160, parts: 1 });
    expect(countSms(`${latin(159)}€`)).toMatchObject({ units: 161, parts: 2 });
    expect(countSms('{}[]~^|\\').units).toBe(16);
  });

  it('never splits an extension character from its escape across parts', () => {
    // 152 septets, then € (2): it cannot fit the first part's last septet, so it starts the second.
    const text = `${latin(152)}€${latin(10)}`;
    const count = countSms(text);
    expect(count.units).toBe(164);
    expect(count.parts).toBe(2);
    expect(count.remaining).toBe(153 - 12);
  });

  it('counts an emoji as two UCS-2 units and keeps its pair in one part', () => {
    expect(countSms('👍')).toMatchObject({ encoding: 'UCS-2', units: 2, parts: 1 });
    const text = `${cyrillic(66)}👍${cyrillic(3)}`;
    expect(countSms(text)).toMatchObject({ units: 71, parts: 2, remaining: 67 - 5 });
  });

  it('knows the GSM-7 letters that look Latin-1 (é, ñ, Ä) are not UCS-2', () => {
    expect(countSms('Café Ñoño Ärger').encoding).toBe('GSM-7');
    expect(countSms('ç').encoding).toBe('UCS-2');
    expect(countSms('ú').encoding).toBe('UCS-2');
  });
});

describe('SMS templates', () => {
  const lead = {
    name: 'Олена',
    phone: '+380501234567',
    utm: { source: 'facebook' },
    custom: { city: 'Київ' },
  };

  it('fills in lead fields, UTM and custom fields', () => {
    expect(renderSmsTemplate('{name}, дякуємо! {phone} {utm_source} {custom.city}', lead)).toBe(
      'Олена, дякуємо! +380501234567 facebook Київ',
    );
  });

  it('leaves no double spaces where the lead has no value, and keeps unknown placeholders visible', () => {
    expect(renderSmsTemplate('Заявка від {name} {email} ({utm_campaign})', lead)).toBe('Заявка від Олена ()');
    expect(renderSmsTemplate('Hi {nmae}', lead)).toBe('Hi {nmae}');
  });

  it('reads {custom.<member>} as the lead’s own field: empty when it has none, never a crash', () => {
    for (const name of [...Object.getOwnPropertyNames(Object.prototype), 'toString', 'constructor']) {
      expect(renderSmsTemplate(`Заявка {custom.${name}}`, lead), name).toBe('Заявка');
      const own = { custom: Object.defineProperty({}, name, { value: 'так', enumerable: true }) };
      expect(renderSmsTemplate(`Заявка {custom.${name}}`, own), name).toBe('Заявка так');
    }
  });

  it('names the placeholders a template gets wrong', () => {
    expect(unknownPlaceholders('{name} {nmae} {custom.ok} {utm_sorce} {nmae}')).toEqual(['nmae', 'utm_sorce']);
    expect(unknownPlaceholders('Привіт, {імʼя}! {} { name }')).toEqual(['імʼя']);
  });
});
