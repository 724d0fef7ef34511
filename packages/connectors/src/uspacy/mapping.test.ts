import type { Lead } from '@leadrelay/shared';
import { describe, expect, it } from 'vitest';
import { SAMPLE_LEAD } from '../kit/contract';
import { redactWebhookUrl, uspacyMessage } from './client';
import {
  commentsWithMarker,
  contactBody,
  fieldValue,
  hasMarker,
  mapFields,
  mappableFields,
  markerOf,
  matchContact,
  noteText,
  ownerOf,
  phoneQuery,
  recordBody,
  splitName,
  titleOf,
  toFunnels,
  toMoney,
  toUnixSeconds,
} from './mapping';

const list = (multiple: boolean) => ({
  type: 'list',
  multiple,
  values: [
    { value: 'phone', title: 'Телефон' },
    { value: 'telegram', title: 'Telegram' },
  ],
});

describe('Uspacy mapping', () => {
  it('titles the record from the template in Ukrainian by default, falling back to the phone', () => {
    expect(titleOf(SAMPLE_LEAD)).toBe('Заявка: Olena Kovalenko');
    expect(titleOf(SAMPLE_LEAD, '{source} / {name} / {phone}')).toBe('facebook / Olena Kovalenko / +380501234567');
    expect(titleOf({ phone: '+380671112233', custom: {} })).toBe('Заявка: +380671112233');
    expect(titleOf({ custom: {} })).toBe('Заявка');
    expect(titleOf({ custom: {} }, '{source}')).toBe('Заявка');
    expect(titleOf(SAMPLE_LEAD, 'x'.repeat(300))).toHaveLength(255);
  });

  it('splits a name into first and last name', () => {
    expect(splitName('Olena Kovalenko-Shevchuk')).toEqual({ first_name: 'Olena', last_name: 'Kovalenko-Shevchuk' });
    expect(splitName('  Іван  Петрович  Франко ')).toEqual({ first_name: 'Іван', last_name: 'Петрович Франко' });
    expect(splitName('Olena')).toEqual({ first_name: 'Olena' });
    expect(splitName(undefined)).toEqual({});
  });

  it('turns our text into what each field type takes, or leaves the field out', () => {
    expect(fieldValue(list(false), 'telegram')).toBe('telegram');
    expect(fieldValue(list(false), ' ТЕЛЕФОН ')).toBe('phone');
    expect(fieldValue(list(false), 'fax')).toBeUndefined();
    expect(fieldValue(list(true), 'Telegram, phone; fax | telegram')).toEqual(['telegram', 'phone']);
    expect(fieldValue(list(true), 'fax')).toBeUndefined();
    expect(fieldValue({ type: 'integer', multiple: false }, '1 499,6')).toBe(1500);
    expect(fieldValue({ type: 'float', multiple: false }, '12,5')).toBe(12.5);
    expect(fieldValue({ type: 'integer', multiple: false }, 'abc')).toBeUndefined();
    expect(fieldValue({ type: 'boolean', multiple: false }, 'Так')).toBe(true);
    expect(fieldValue({ type: 'boolean', multiple: false }, 'no')).toBe(false);
    expect(fieldValue({ type: 'datetime', multiple: false }, '2026-03-05T10:00:00Z')).toBe(
      Date.UTC(2026, 2, 5, 10) / 1000,
    );
    expect(fieldValue({ type: 'datetime', multiple: false }, 'someday')).toBeUndefined();
    expect(fieldValue({ type: 'phone', multiple: true }, '+380501234567')).toEqual([
      { value: '+380501234567', type: 'work' },
    ]);
    expect(fieldValue({ type: 'textarea', multiple: false }, 'x'.repeat(20_000))).toHaveLength(10_000);
  });

  it('reads money and dates the way people type them', () => {
    expect(toMoney('900')).toEqual({ currency: 'UAH', value: '900' });
    expect(toMoney('900 грн')).toEqual({ currency: 'UAH', value: '900' });
    expect(toMoney('eur 12,5')).toEqual({ currency: 'EUR', value: '12.5' });
    expect(toMoney('lots')).toBeUndefined();
    expect(toUnixSeconds('05.03.2026')).toBe(Date.UTC(2026, 2, 5) / 1000);
    expect(toUnixSeconds('5/3/2026')).toBe(Date.UTC(2026, 2, 5) / 1000);
  });

  it('maps only the entity asked for, skipping fields the portal no longer has and values that do not fit', () => {
    const lead: Lead = { ...SAMPLE_LEAD, custom: { budget: '900', channel: 'telegram', bad: 'x' } };
    const fields = [
      { code: 'budget', name: 'Бюджет', type: 'integer', required: false, multiple: false },
      { code: 'channels', name: 'Канали', required: false, ...list(true) },
      { code: 'score', name: 'Оцінка', type: 'integer', required: false, multiple: false },
    ];
    const mappings = [
      { from: 'custom.budget', entity: 'lead' as const, code: 'budget' },
      { from: 'custom.channel', entity: 'lead' as const, code: 'channels' },
      { from: 'custom.bad', entity: 'lead' as const, code: 'score' },
      { from: 'custom.budget', entity: 'lead' as const, code: 'gone' },
      { from: 'utm.source', entity: 'contact' as const, code: 'budget' },
      { from: 'custom.missing', entity: 'lead' as const, code: 'budget' },
    ];
    expect(mapFields(lead, mappings, 'lead', fields)).toEqual({ budget: 900, channels: ['telegram'] });
  });

  it('offers for mapping only visible, editable fields of a type it writes, never the ones it fills itself', () => {
    const raw = [
      { code: 'title', name: 'Назва', type: 'string' },
      { code: 'city', name: 'Місто', type: 'string' },
      { code: 'secret', name: 'Х', type: 'string', hidden: true },
      { code: 'ro', name: 'Х', type: 'string', editable: false },
      { code: 'files', name: 'Файли', type: 'file' },
      { code: 'utm_source', name: 'UTM', type: 'utm' },
      { code: 'tier', name: 'Рівень', type: 'list', values: [{ value: 1, title: 'Gold' }, { bogus: true }] },
      { name: 'без коду', type: 'string' },
    ];
    expect(mappableFields(raw)).toEqual([
      { code: 'city', name: 'Місто', type: 'string', required: false, multiple: false },
      {
        code: 'tier',
        name: 'Рівень',
        type: 'list',
        required: false,
        multiple: false,
        values: [{ value: '1', title: 'Gold' }],
      },
    ]);
  });

  it('builds a lead with the person, funnel, stage, owner, contact, UTM and our mark; a deal without the person', () => {
    const refs = { title: 'T', owner: 7, contactId: 42, marker: 'LR-x', fields: { city: 'Kyiv', title: 'not this' } };
    expect(recordBody('lead', SAMPLE_LEAD, { funnelId: 2, stageId: 202 }, refs)).toEqual({
      city: 'Kyiv',
      title: 'T',
      first_name: 'Olena',
      last_name: 'Kovalenko',
      phone: [{ value: '+380501234567', type: 'work' }],
      email: [{ value: 'olena@example.com', type: 'work' }],
      funnel_id: 2,
      kanban_stage_id: 202,
      owner: 7,
      contacts: [42],
      utm_source: 'facebook',
      utm_campaign: 'spring',
      comments: 'Call after 18:00\n\nLeadRelay · LR-x',
    });
    const deal = recordBody(
      'deal',
      { name: 'A', custom: {} },
      { stageId: 301 },
      { ...refs, owner: undefined, contactId: undefined, fields: {} },
    );
    // A stage without its funnel is not sent: the portal's default funnel decides.
    expect(deal).toEqual({ title: 'T', comments: 'LeadRelay · LR-x' });
    expect(contactBody({ email: 'a@b.c', custom: {} }, { fields: {} })).toEqual({
      title: 'a@b.c',
      email: [{ value: 'a@b.c', type: 'work' }],
    });
  });

  it('marks a record with a short mark of the idempotency key and finds it again', () => {
    const marker = markerOf('lead-1:dest-1');
    expect(marker).toMatch(/^LR-[0-9a-f]{16}$/);
    expect(markerOf('lead-1:dest-1')).toBe(marker);
    expect(markerOf('lead-1:dest-2')).not.toBe(marker);
    expect(hasMarker({ comments: commentsWithMarker('Hi', marker) }, marker)).toBe(true);
    expect(hasMarker({ comments: commentsWithMarker('Hi', markerOf('other')) }, marker)).toBe(false);
    expect(hasMarker({ comments: null }, marker)).toBe(false);
  });

  it('takes the owner from distribution when it is a user id, else from the settings', () => {
    expect(ownerOf('12', { ownerId: 3 })).toBe(12);
    expect(ownerOf('manager-anna', { ownerId: 3 })).toBe(3);
    expect(ownerOf('0', {})).toBeUndefined();
    expect(ownerOf(undefined, {})).toBeUndefined();
  });

  it('confirms a searched contact by the phone’s last nine digits or the exact e-mail', () => {
    expect(phoneQuery('+380 50 123-45-67')).toBe('501234567');
    const contacts = [
      { id: 9, phone: [{ value: '0501234567' }] },
      { id: 5, phone: '+380501234567', email: [{ value: 'Olena@Example.com' }] },
      { id: 3, phone: [{ value: '+380501234560' }] },
    ];
    expect(matchContact(contacts, { phone: '+380501234567' })?.id).toBe(5);
    expect(matchContact(contacts, { email: 'olena@example.com ' })?.id).toBe(5);
    expect(matchContact(contacts, { phone: '+380999999999' })).toBeUndefined();
  });

  it('writes the comment in Ukrainian with UTM, custom values, the raw lead and the mark', () => {
    const text = noteText(SAMPLE_LEAD, { form: 'spring' }, 'LR-abc');
    expect(text.split('\n')).toEqual([
      'Заявка з LeadRelay',
      "Ім'я: Olena Kovalenko",
      'Телефон: +380501234567',
      'E-mail: olena@example.com',
      'Коментар: Call after 18:00',
      'UTM: utm_source=facebook, utm_campaign=spring',
      'city: Kyiv',
      '',
      'Заявка як надійшла:',
      '{',
      '  "form": "spring"',
      '}',
      '',
      'LeadRelay · LR-abc',
    ]);
    expect(noteText({ custom: {} }, 'x'.repeat(30_000), 'LR-abc').length).toBeLessThan(20_100);
  });

  it('orders stages and drops inactive funnels', () => {
    const funnels = toFunnels(
      [
        {
          id: 1,
          title: 'A',
          default: true,
          stages: [
            { id: 12, title: 'b', sort: 20 },
            { id: 11, title: 'a', sort: 10, system_stage: false },
          ],
        },
        { id: 2, title: 'Off', active: false, stages: [] },
        { id: 3, title: 'C' },
      ],
      (id) => (id === 3 ? [{ id: 31, title: 'c', sort: 1, stage_code: 'SUCCESS', system_stage: true }] : []),
    );
    expect(funnels).toEqual([
      {
        id: 1,
        title: 'A',
        isDefault: true,
        stages: [
          { id: 11, title: 'a', sort: 10, isSystem: false },
          { id: 12, title: 'b', sort: 20, isSystem: false },
        ],
      },
      {
        id: 3,
        title: 'C',
        isDefault: false,
        stages: [{ id: 31, title: 'c', sort: 1, code: 'SUCCESS', isSystem: true }],
      },
    ]);
  });

  it("reads Laravel's refusals and hides the incoming webhook's key", () => {
    expect(
      uspacyMessage({
        message: 'The given data was invalid.',
        errors: { title: ['Required.'], owner: ['Bad.', 'Gone.'] },
      }),
    ).toBe('title: Required.; owner: Bad. Gone.');
    expect(uspacyMessage({ message: 'Unauthenticated.' })).toBe('Unauthenticated.');
    expect(uspacyMessage('  Bad   gateway ')).toBe('Bad   gateway');
    expect(
      redactWebhookUrl(
        'https://acme.uspacy.ua/company/v1/incoming_webhooks/run/s3cr3tKey/crm/v1/entities/leads?page=1',
      ),
    ).toBe('https://acme.uspacy.ua/company/v1/incoming_webhooks/run/[redacted]/crm/v1/entities/leads?page=1');
  });
});

describe('field codes from outside are data (issue 27)', () => {
  it('writes a portal field whose code is __proto__ or constructor as that field', () => {
    const text = (code: string) => ({ code, name: code, type: 'string', required: false, multiple: false });
    const fields = [text('__proto__'), text('constructor')];
    const mappings = [
      { from: 'name', entity: 'lead' as const, code: '__proto__' },
      { from: 'phone', entity: 'lead' as const, code: 'constructor' },
    ];
    const out = mapFields({ name: 'Olena', phone: '+380501234567', custom: {} }, mappings, 'lead', fields);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.entries(out)).toEqual([
      ['__proto__', 'Olena'],
      ['constructor', '+380501234567'],
    ]);
    expect(JSON.parse(JSON.stringify(out))).toEqual(JSON.parse('{"__proto__":"Olena","constructor":"+380501234567"}'));
  });
});
