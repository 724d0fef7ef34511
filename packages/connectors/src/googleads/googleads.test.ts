// How a Google Ads lead form webhook body becomes an item, and the key check.
import { describe, expect, it } from 'vitest';
import { leadBody } from './emulator';
import { isTestLead, keyMatches, leadItems, MAX_COLUMNS } from './mapping';
import { googleAdsState } from './source';

const KEY = 'k'.repeat(43);

describe('a lead body', () => {
  it('maps Google column ids to lead fields and keeps questions as data', () => {
    const [item, ...rest] = leadItems({
      lead_id: 'L1',
      google_key: KEY,
      campaign_id: 21467123456,
      gcl_id: 'Cj0',
      is_test: false,
      user_column_data: [
        { column_id: 'FULL_NAME', string_value: ' Олена Коваль ' },
        { column_id: 'WORK_PHONE', string_value: '+380441234567' },
        { column_id: 'PHONE_NUMBER', string_value: '+380501234567' },
        { column_id: 'WORK_EMAIL', string_value: 'work@example.com' },
        { column_id: 'POSTAL_CODE', string_value: '01001' },
        { column_id: 'VEHICLE_MODEL', column_name: 'Which model are you interested in?', string_value: 'Nova' },
        { column_name: 'Бюджет?', string_value: '10 000 грн' },
      ],
    });
    expect(rest).toEqual([]);
    expect(item!.id).toBe('L1');
    expect(item!.test).toBeUndefined();
    expect(item!.payload).toMatchObject({
      name: 'Олена Коваль',
      phone: '+380501234567',
      email: 'work@example.com',
      work_phone: '+380441234567',
      postal_code: '01001',
      question_1: 'Which model are you interested in?',
      answer_1: 'Nova',
      question_2: 'Бюджет?',
      answer_2: '10 000 грн',
      comment: 'Which model are you interested in?: Nova\nБюджет?: 10 000 грн',
      campaign_id: '21467123456',
      utm_campaign: '21467123456',
      gcl_id: 'Cj0',
      is_test: 'false',
    });
    // The key is Google's proof, never data on the lead.
    expect(Object.values(item!.payload)).not.toContain(KEY);
  });

  it('joins FIRST_NAME and LAST_NAME when there is no FULL_NAME', () => {
    const [item] = leadItems({
      lead_id: 'L2',
      user_column_data: [
        { column_id: 'FIRST_NAME', string_value: 'Тарас' },
        { column_id: 'LAST_NAME', string_value: 'Шевченко' },
      ],
    });
    expect(item!.payload.name).toBe('Тарас Шевченко');
  });

  it('says a test lead is a test', () => {
    const body = leadBody({ webhookUrl: 'http://x', key: KEY, test: true });
    expect(isTestLead(body)).toBe(true);
    expect(leadItems(body)[0]).toMatchObject({ test: true, payload: { is_test: 'true', name: 'FirstName LastName' } });
  });

  it('gives no item for junk, and reads at most MAX_COLUMNS columns', () => {
    for (const junk of [null, 1, 'x', [], [{ lead_id: 'a' }], { lead_id: null }, { lead_id: true }, {}])
      expect(leadItems(junk)).toEqual([]);
    const many = Array.from({ length: MAX_COLUMNS + 50 }, (_, i) => ({ column_name: `q${i}`, string_value: 'a' }));
    const [item] = leadItems({ lead_id: 'many', user_column_data: many });
    expect(item!.payload[`question_${MAX_COLUMNS}`]).toBe(`q${MAX_COLUMNS - 1}`);
    expect(item!.payload).not.toHaveProperty(`question_${MAX_COLUMNS + 1}`);
  });
});

describe('the key check', () => {
  it('passes only the stored key, exactly', () => {
    expect(keyMatches({ google_key: KEY }, { key: KEY })).toBe(true);
    expect(keyMatches({ google_key: `${KEY} ` }, { key: KEY })).toBe(false);
    expect(keyMatches({ google_key: KEY.slice(1) }, { key: KEY })).toBe(false);
    expect(keyMatches({}, { key: KEY })).toBe(false);
    expect(keyMatches({ google_key: KEY }, {})).toBe(false);
    expect(keyMatches({ google_key: '' }, { key: '' })).toBe(false);
    expect(keyMatches('junk', { key: KEY })).toBe(false);
  });
});

describe('the state', () => {
  it('shows no address before a key exists, and the key and address after', () => {
    const view = {
      auth: {},
      settings: {},
      subscription: { status: 'none' as const, registeredAt: null, removedAt: null },
      poll: { cursor: null, lastRunAt: null, lastError: null },
      receivers: { leads: 'https://app.example/api/googleads/webhook/tok' },
      seen: [],
    };
    expect(googleAdsState(view)).toEqual({ webhookUrl: null, key: null, leads: [] });
    expect(googleAdsState({ ...view, auth: { key: KEY } })).toMatchObject({
      webhookUrl: 'https://app.example/api/googleads/webhook/tok',
      key: KEY,
    });
  });
});
