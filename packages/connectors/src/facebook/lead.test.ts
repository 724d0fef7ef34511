import { applyMapping, type Lead } from '@leadrelay/shared';
import { describe, expect, it } from 'vitest';
import { graphLeadPayload, type MetaLead } from './lead';

/** What a Meta lead becomes under an integration's default mapping (the ingest applies it to the payload). */
const leadFromGraph = (lead: MetaLead): Lead => applyMapping(graphLeadPayload(lead), undefined);

const AD_LEAD: MetaLead = {
  id: '8000000000001',
  created_time: '2024-06-01T10:15:30+0000',
  form_id: '301',
  ad_id: '401',
  ad_name: 'Lead ad A',
  adset_id: '501',
  adset_name: 'Kyiv 25-45',
  campaign_id: '601',
  campaign_name: 'Spring promo',
  is_organic: false,
  platform: 'ig',
  field_data: [
    { name: 'full_name', values: [' Ірина Шевченко '] },
    { name: 'email', values: ['Iryna@Example.COM'] },
    { name: 'phone_number', values: ['067 123 45 67'] },
    { name: 'preferred_time', values: ['Зранку', 'Ввечері'] },
    { name: 'what bothers you?', values: ['Tooth ache'] },
  ],
};

describe('a Meta lead under the default mapping', () => {
  it('maps standard questions to lead fields and the rest to custom, with ad attribution', () => {
    const lead = leadFromGraph(AD_LEAD);
    expect(lead.name).toBe('Ірина Шевченко');
    expect(lead.email).toBe('iryna@example.com');
    expect(lead.phone).toBe('+380671234567');
    expect(lead.utm).toEqual({ source: 'facebook', campaign: 'Spring promo' });
    expect(lead.custom).toMatchObject({
      preferred_time: 'Зранку, Ввечері',
      what_bothers_you_: 'Tooth ache',
      leadgen_id: '8000000000001',
      fb_form_id: '301',
      fb_ad_id: '401',
      fb_adset_name: 'Kyiv 25-45',
      fb_campaign_id: '601',
      fb_campaign_name: 'Spring promo',
      fb_platform: 'ig',
      fb_is_organic: 'false',
    });
  });

  it('joins first_name and last_name into the name; keeps an unreadable phone as written', () => {
    const lead = leadFromGraph({
      id: '1',
      created_time: '2024-06-01T10:15:30+0000',
      is_organic: true,
      field_data: [
        { name: 'first_name', values: ['Taras'] },
        { name: 'last_name', values: ['Bondar'] },
        { name: 'phone_number', values: ['call me maybe'] },
        { name: 'city', values: [] },
      ],
    });
    expect(lead.name).toBe('Taras Bondar');
    expect(lead.phone).toBe('call me maybe');
    expect(lead.utm).toEqual({ source: 'facebook' });
    expect(lead.custom.city).toBeUndefined();
    expect(lead.custom.fb_ad_id).toBeUndefined();
    expect(lead.custom.fb_is_organic).toBe('true');
  });
});

describe('graphLeadPayload', () => {
  it('is a flat payload the webhook mapping and dedupe (leadgen_id) can read', () => {
    const payload = graphLeadPayload(AD_LEAD);
    expect(payload).toMatchObject({
      leadgen_id: '8000000000001',
      full_name: 'Ірина Шевченко',
      phone_number: '067 123 45 67',
      utm_source: 'facebook',
      utm_campaign: 'Spring promo',
    });
    expect(Object.values(payload).every((v) => typeof v === 'string')).toBe(true);
  });

  it('a question cannot overwrite the lead id or the ad ids', () => {
    const payload = graphLeadPayload({
      id: '77',
      created_time: '2024-06-01T10:15:30+0000',
      field_data: [
        { name: 'leadgen_id', values: ['forged'] },
        { name: 'fb_ad_id', values: ['forged'] },
        { name: 'Ваше місто', values: ['Lviv'] },
      ],
    });
    expect(payload.leadgen_id).toBe('77');
    expect(payload.fb_ad_id).toBeUndefined();
    expect(payload.question_3).toBe('Lviv');
  });
});

describe('question keys from the form are data (issue 27)', () => {
  it('keeps a question named like a built-in member (__proto__, constructor, toString…) as a field', () => {
    const names = [...Object.getOwnPropertyNames(Object.prototype), ...Object.getOwnPropertyNames(Function.prototype)];
    for (const name of names) {
      const payload = graphLeadPayload({ ...AD_LEAD, field_data: [{ name, values: ['Так'] }] });
      expect(Object.getPrototypeOf(payload), name).toBe(Object.prototype);
      expect(Object.hasOwn(payload, name) && payload[name], name).toBe('Так');
      expect(leadFromGraph({ ...AD_LEAD, field_data: [{ name, values: ['Так'] }] }).custom[name], name).toBe(
        name === 'name' ? undefined : 'Так',
      );
    }
  });
});
