import type { Lead } from '@leadrelay/shared';
import { describe, expect, it } from 'vitest';
import { ADD_DEAL_PARAMS } from './emulator-deals';
import {
  activityBody,
  customValue,
  dealBody,
  dealMarker,
  type FieldMeta,
  hasDealMarker,
  leadBody,
  mapFields,
  noteHtml,
  ownerOf,
  personBody,
  titleOf,
  toDate,
  webhookEvent,
} from './mapping';
import type { PipedriveSettings } from './schema';

const K = (n: number) => `${'ab'.repeat(19)}0${n}`;
const FIELDS: FieldMeta[] = [
  { key: K(1), field_type: 'varchar', edit_flag: true },
  { key: K(2), field_type: 'double', edit_flag: true },
  {
    key: K(3),
    field_type: 'enum',
    edit_flag: true,
    options: [
      { id: 31, label: 'Facebook' },
      { id: 32, label: 'Google' },
    ],
  },
  {
    key: K(4),
    field_type: 'set',
    edit_flag: true,
    options: [
      { id: 41, label: 'Kyiv' },
      { id: 42, label: 'Lviv' },
    ],
  },
  { key: K(5), field_type: 'date', edit_flag: true },
  { key: K(6), field_type: 'int', edit_flag: true },
  { key: 'title', field_type: 'varchar' },
];
const LEAD: Lead = {
  name: 'Olena',
  phone: '+380501234567',
  email: 'olena@example.com',
  comment: 'Call <after> 18:00',
  utm: { source: 'facebook', campaign: 'spring' },
  custom: { budget: '1 250,50', channel: 'google', cities: 'Kyiv, lviv, Paris', visit: '05.03.2026', seats: '3.6' },
};

describe('pipedrive mapping', () => {
  it('writes each custom value as its field type wants it', () => {
    expect(customValue(FIELDS[2]!, 'GOOGLE')).toBe(32);
    expect(customValue(FIELDS[2]!, '31')).toBe(31);
    expect(customValue(FIELDS[2]!, 'Bing')).toBeUndefined();
    expect(customValue(FIELDS[3]!, 'Kyiv; Lviv, Kyiv, Rome')).toEqual([41, 42]);
    expect(customValue(FIELDS[3]!, 'Rome')).toBeUndefined();
    expect(customValue({ field_type: 'double' }, '1 250,50')).toBe(1250.5);
    expect(customValue({ field_type: 'monetary' }, '99')).toBe(99);
    expect(customValue({ field_type: 'double' }, 'a lot')).toBeUndefined();
    expect(customValue({ field_type: 'int' }, '3.6')).toBe(4);
    expect(customValue({ field_type: 'date' }, '2026-03-05T10:00:00Z')).toBe('2026-03-05');
    expect(customValue({ field_type: 'varchar' }, 'text')).toBe('text');
    expect(toDate('5/3/2026')).toBe('2026-03-05');
    expect(toDate('not a date')).toBeUndefined();
  });

  it('maps custom fields of one entity, skipping unknown system keys and values that do not fit', () => {
    const mapped = mapFields(
      LEAD,
      [
        { from: 'comment', entity: 'deal', key: K(1) },
        { from: 'custom.budget', entity: 'deal', key: K(2) },
        { from: 'custom.channel', entity: 'deal', key: K(3) },
        { from: 'custom.cities', entity: 'deal', key: K(4) },
        { from: 'custom.visit', entity: 'deal', key: K(5) },
        { from: 'custom.seats', entity: 'deal', key: K(6) },
        { from: 'utm.source', entity: 'deal', key: 'title' },
        { from: 'custom.budget', entity: 'deal', key: 'value' },
        { from: 'custom.missing', entity: 'deal', key: K(1) },
        { from: 'name', entity: 'person', key: K(1) },
      ],
      'deal',
      FIELDS,
    );
    expect(mapped.custom).toEqual({
      [K(1)]: 'Call <after> 18:00',
      [K(2)]: 1250.5,
      [K(3)]: 32,
      [K(4)]: [41, 42],
      [K(5)]: '2026-03-05',
      [K(6)]: 4,
    });
    expect(mapped.system).toEqual({ value: 1250.5 });
    // A lead has no `value` system key to write (it takes {amount, currency}).
    expect(
      mapFields(LEAD, [{ from: 'custom.budget', entity: 'deal', key: 'value' }], 'deal', FIELDS, 'lead').system,
    ).toEqual({});
  });

  it('fills the title template and falls back when it would be empty', () => {
    expect(titleOf(LEAD)).toBe('Lead: Olena');
    expect(titleOf(LEAD, '{source} / {name} / {phone}')).toBe('facebook / Olena / +380501234567');
    expect(titleOf({ phone: '+380501234567', custom: {} }, '{name}')).toBe('Lead: +380501234567');
    expect(titleOf(LEAD, 'x'.repeat(300))).toHaveLength(255);
  });

  it('builds a lead with top-level custom fields and organization_id, a deal with custom_fields and org_id', () => {
    const refs = {
      title: 'T',
      personId: 7,
      orgId: 3,
      ownerId: 101,
      originId: 'key-1',
      fields: { custom: { [K(1)]: 'x' }, system: {} },
    };
    expect(leadBody(refs)).toEqual({
      [K(1)]: 'x',
      title: 'T',
      person_id: 7,
      organization_id: 3,
      owner_id: 101,
      origin_id: 'key-1',
    });
    // v2 deals take no origin_id: the key goes in as the title's mark.
    expect(dealBody(refs, { pipelineId: 2, stageId: 21 })).toEqual({
      title: `T · ${dealMarker('key-1')}`,
      person_id: 7,
      org_id: 3,
      owner_id: 101,
      pipeline_id: 2,
      stage_id: 21,
      custom_fields: { [K(1)]: 'x' },
    });
  });

  it("a deal's body has only keys of the official AddDealRequest (pipedrive@33.7.0), its title a mark that survives a long title", () => {
    const refs = {
      title: 'x'.repeat(255),
      personId: 7,
      originId: 'key-1',
      fields: { custom: {}, system: { value: 5 } },
    };
    const body = dealBody(refs, { pipelineId: 2 });
    expect(Object.keys(body).filter((k) => !ADD_DEAL_PARAMS.has(k))).toEqual([]);
    expect(body.title).toHaveLength(255);
    expect(hasDealMarker(body, dealMarker('key-1'))).toBe(true);
    expect(hasDealMarker(body, dealMarker('key-2'))).toBe(false);
    expect(dealMarker('key-1')).toMatch(/^LR-[0-9a-f]{12}$/);
  });

  it('builds the person with primary e-mail and phone; the owner comes from distribution, else the settings', () => {
    expect(personBody(LEAD, { ownerId: 102 })).toEqual({
      name: 'Olena',
      owner_id: 102,
      emails: [{ value: 'olena@example.com', primary: true, label: 'work' }],
      phones: [{ value: '+380501234567', primary: true, label: 'mobile' }],
    });
    expect(personBody({ phone: '+380501234567', custom: {} }, {}).name).toBe('+380501234567');
    expect(ownerOf('102', { ownerId: 101 })).toBe(102);
    expect(ownerOf('u-anna', { ownerId: 101 })).toBe(101);
    expect(ownerOf(undefined, {})).toBeUndefined();
  });

  it('writes the note as escaped HTML with UTM, custom values and the raw payload', () => {
    const html = noteHtml(LEAD, { form: '<script>' });
    expect(html).toContain('<b>Phone:</b> +380501234567');
    expect(html).toContain('<b>utm_campaign:</b> spring');
    expect(html).toContain('Call &lt;after&gt; 18:00');
    expect(html).toContain('&lt;script&gt;');
    expect(html).not.toContain('<script>');
  });

  it('schedules the activity dueInMinutes later, on the lead or the deal', () => {
    const activity: NonNullable<PipedriveSettings['activity']> = { type: 'call', dueInMinutes: 90 };
    const body = activityBody(
      activity,
      { title: 'Lead: Olena', personId: 7, leadId: 'abc' },
      new Date('2026-03-05T23:00:00Z'),
    );
    expect(body).toMatchObject({
      subject: 'Lead: Olena',
      type: 'call',
      lead_id: 'abc',
      person_id: 7,
      due_date: '2026-03-06',
      due_time: '00:30',
    });
    expect(body).not.toHaveProperty('deal_id');
  });

  it("maps webhook events onto Pipedrive's 2.0 actions", () => {
    expect(webhookEvent('added.deal')).toEqual({ event_action: 'create', event_object: 'deal' });
    expect(webhookEvent('*.person')).toEqual({ event_action: '*', event_object: 'person' });
    expect(webhookEvent('change.lead')).toEqual({ event_action: 'change', event_object: 'lead' });
  });
});

describe('field names from outside are data (issue 27)', () => {
  const MEMBERS = [...Object.getOwnPropertyNames(Object.prototype), ...Object.getOwnPropertyNames(Function.prototype)];

  it('reads custom.<member> as the lead field or nothing, never an inherited function', () => {
    for (const name of MEMBERS) {
      expect(mapFields(LEAD, [{ from: `custom.${name}`, entity: 'deal', key: K(1) }], 'deal', FIELDS)).toEqual({
        custom: {},
        system: {},
      });
      const own: Lead = { custom: Object.defineProperty({}, name, { value: 'Так', enumerable: true }) };
      expect(mapFields(own, [{ from: `custom.${name}`, entity: 'deal', key: K(1) }], 'deal', FIELDS).custom).toEqual({
        [K(1)]: 'Так',
      });
    }
  });

  it('writes nothing for a Pipedrive key named like a member that is not an allowed system key', () => {
    for (const key of MEMBERS) {
      expect(mapFields(LEAD, [{ from: 'name', entity: 'deal', key }], 'deal', FIELDS)).toEqual({
        custom: {},
        system: {},
      });
    }
  });

  it('keeps a webhook event action it does not know as written', () => {
    expect(webhookEvent('constructor.deal')).toEqual({ event_action: 'constructor', event_object: 'deal' });
    expect(webhookEvent('added.deal')).toEqual({ event_action: 'create', event_object: 'deal' });
  });
});
