import { describe, expect, it } from 'vitest';
import {
  applyMapping,
  applyTransforms,
  canonicalJson,
  DEFAULT_KEYS,
  DEFAULT_MAPPING,
  evaluateFilters,
  getPath,
  mapLead,
  normalizePhone,
  ZFilter,
  ZSourceOptions,
} from './mapping';

describe('normalizePhone', () => {
  it.each([
    ['0501234567', '+380501234567'],
    ['050 123 45 67', '+380501234567'],
    ['(050) 123-45-67', '+380501234567'],
    ['380501234567', '+380501234567'],
    ['+380501234567', '+380501234567'],
    ['+38 (050) 123-45-67', '+380501234567'],
    ['00380501234567', '+380501234567'],
    ['+48 601 234 567', '+48601234567'],
    ['+1 (212) 555-0100', '+12125550100'],
  ])('%s → %s', (input, expected) => {
    expect(normalizePhone(input)).toBe(expected);
  });

  it.each(['', '   ', 'call me', '12', '+38050abc', '050-123'])('refuses %j', (input) => {
    expect(normalizePhone(input)).toBeUndefined();
  });

  it('the phone transform keeps an unreadable number as written, trimmed', () => {
    expect(applyTransforms('  ask at reception ', ['phone'])).toBe('ask at reception');
    expect(applyTransforms(' Olena ', ['trim', 'upper'])).toBe('OLENA');
    expect(applyTransforms('MiXeD', ['lower'])).toBe('mixed');
  });
});

describe('getPath', () => {
  it('reads nested paths, numbers and arrays', () => {
    const body = { form: { phone: '050', n: 5, tags: ['a', 'b'] } };
    expect(getPath(body, 'form.phone')).toBe('050');
    expect(getPath(body, 'form.n')).toBe('5');
    expect(getPath(body, 'form.tags')).toBe('a, b');
    expect(getPath(body, 'form.missing')).toBeUndefined();
    expect(getPath(body, 'form.phone.deeper')).toBeUndefined();
    expect(getPath(body, 'form')).toBeUndefined();
  });
});

describe('applyMapping', () => {
  it('maps well-known names by themselves and keeps the rest as custom fields', () => {
    const lead = applyMapping(
      { name: ' Olena ', phone: '050 123 45 67', email: 'A@B.UA', message: 'hi', utm_source: 'fb', city: 'Kyiv' },
      undefined,
    );
    expect(lead).toEqual({
      name: 'Olena',
      phone: '+380501234567',
      email: 'a@b.ua',
      comment: 'hi',
      utm: { source: 'fb' },
      custom: { city: 'Kyiv' },
    });
  });

  it('follows the rules: paths, concatenation, defaults and transforms', () => {
    const lead = applyMapping({ form: { first: 'Olena', last: 'Shevchenko', tel: '380501234567' }, src: 'IG' }, [
      { from: ['form.first', 'form.last'], to: 'name' },
      { from: 'form.tel', to: 'phone', transform: ['phone'] },
      { from: 'src', to: 'utm.source', transform: ['lower'] },
      { from: 'missing', to: 'comment', default: 'none' },
      { from: ['form.first', 'form.missing'], to: 'custom.first', separator: '-' },
    ]);
    expect(lead).toEqual({
      name: 'Olena Shevchenko',
      phone: '+380501234567',
      utm: { source: 'ig' },
      comment: 'none',
      custom: { first: 'Olena' },
    });
  });

  it('leaves a field out when the source is empty and no default is set', () => {
    expect(applyMapping({ a: '  ' }, [{ from: 'a', to: 'name' }])).toEqual({ custom: {} });
  });
});

// Issue 27: one rule `city` → `custom.city` used to empty every lead of its name, phone, e-mail,
// message and UTM.
describe('the default mapping stays beside the rules', () => {
  const form = {
    Name: ' Olena ',
    tel: '050 123 45 67',
    email: 'A@B.UA',
    message: 'hi',
    utm_source: 'fb',
    utm_campaign: 'spring',
    city: 'Kyiv',
    page: '/contacts',
  };
  const everything = {
    name: 'Olena',
    phone: '+380501234567',
    email: 'a@b.ua',
    comment: 'hi',
    utm: { source: 'fb', campaign: 'spring' },
  };

  it('one rule on a custom field keeps name, phone, e-mail, message, UTM and the other fields', () => {
    expect(applyMapping(form, [{ from: 'city', to: 'custom.city', transform: ['upper'] }])).toEqual({
      ...everything,
      custom: { city: 'KYIV', page: '/contacts' },
    });
  });

  it('a rule on a well-known lead field replaces only that default; the key it reads is not copied to custom', () => {
    expect(applyMapping(form, [{ from: 'city', to: 'comment' }])).toEqual({
      ...everything,
      comment: 'Kyiv',
      custom: { page: '/contacts' },
    });
    // A rule that finds nothing still owns its field: the default does not come back.
    expect(applyMapping(form, [{ from: 'form.phone', to: 'phone' }])).toEqual({
      ...everything,
      phone: undefined,
      custom: { city: 'Kyiv', page: '/contacts' },
    });
    expect(applyMapping(form, [{ from: 'utm_source', to: 'utm.source', transform: ['upper'] }]).utm).toEqual({
      source: 'FB',
      campaign: 'spring',
    });
  });

  it('defaults: false maps only what the rules say; off turns off the defaults of the fields named', () => {
    const rules = [{ from: 'city', to: 'custom.city' }];
    expect(applyMapping(form, rules, false)).toEqual({ custom: { city: 'Kyiv' } });
    expect(applyMapping(form, undefined, false)).toEqual({ custom: {} });
    expect(applyMapping(form, rules, { off: ['email', 'utm.campaign', 'custom'] })).toEqual({
      name: 'Olena',
      phone: '+380501234567',
      comment: 'hi',
      utm: { source: 'fb' },
      custom: { city: 'Kyiv' },
    });
    // A well-known key whose default is off is not a custom field either.
    expect(applyMapping({ email: 'a@b.ua' }, undefined, { off: ['email'] })).toEqual({ custom: {} });
  });

  it('ZSourceOptions takes defaults as true, false or { off: [...] } and refuses anything else', () => {
    for (const defaults of [true, false, { off: [] }, { off: ['name', 'utm.term', 'custom'] }]) {
      expect(ZSourceOptions.safeParse({ defaults }).success).toBe(true);
    }
    for (const defaults of ['no', { off: ['address'] }, { off: ['name'], extra: 1 }, { off: 'name' }]) {
      expect(ZSourceOptions.safeParse({ defaults }).success).toBe(false);
    }
  });

  it('mapLead is what ingest stores: mapping, filters and the no-contact warning', () => {
    const mapped = mapLead(form, {
      mapping: [{ from: 'city', to: 'custom.city' }],
      filters: [{ field: 'utm.source', op: 'equals', value: 'FB' }],
    });
    expect(mapped).toEqual({
      lead: { ...everything, custom: { city: 'Kyiv', page: '/contacts' } },
      verdict: { kept: true },
      warnings: [],
    });
    const empty = mapLead(form, { mapping: [{ from: 'city', to: 'custom.city' }], defaults: false });
    expect(empty.warnings).toEqual(['NO_CONTACT']);
    expect(mapLead({ name: 'Olena' }, undefined).warnings).toEqual([]);
    expect(mapLead({ email: 'a@b.ua' }, undefined).warnings).toEqual([]);
    expect(mapLead({ phone: ' ', message: 'hi' }, undefined).warnings).toEqual(['NO_CONTACT']);
  });

  it('DEFAULT_MAPPING lists every default with the payload keys it reads', () => {
    expect(DEFAULT_MAPPING.find((r) => r.to === 'phone')).toEqual({
      to: 'phone',
      from: ['phone', 'tel', 'phone_number'],
      transform: ['phone'],
    });
    expect(DEFAULT_MAPPING.find((r) => r.to === 'custom')).toEqual({ to: 'custom', from: [], transform: [] });
    expect(DEFAULT_MAPPING.map((r) => r.to)).toEqual([...DEFAULT_KEYS]);
  });
});

describe('evaluateFilters', () => {
  const lead = { name: 'Olena', phone: '+380501234567', utm: { source: 'facebook' }, custom: { city: 'Kyiv' } };
  const raw = { form: { test: 'yes' } };
  const verdict = (filters: unknown[]) =>
    evaluateFilters(
      lead,
      raw,
      filters.map((f) => ZFilter.parse(f)),
    );

  it('keeps a lead when every filter holds', () => {
    expect(verdict([])).toEqual({ kept: true });
    expect(
      verdict([
        { field: 'utm.source', op: 'equals', value: 'FACEBOOK' },
        { field: 'custom.city', op: 'contains', value: 'ky' },
        { field: 'phone', op: 'regex', value: '^\\+380' },
        { field: 'email', op: 'empty' },
        { field: 'name', op: 'notEmpty' },
        { field: 'raw.form.test', op: 'equals', value: 'no', negate: true },
      ]),
    ).toEqual({ kept: true });
  });

  it('drops a lead with the first failing filter as the reason', () => {
    expect(verdict([{ field: 'raw.form.test', op: 'equals', value: 'yes', negate: true }])).toMatchObject({
      kept: false,
      reason: 'FILTERED: raw.form.test not equals "yes"',
    });
    expect(verdict([{ field: 'email', op: 'notEmpty' }])).toEqual({
      kept: false,
      reason: 'FILTERED: email notEmpty',
      filter: { field: 'email', op: 'notEmpty' },
    });
    expect(
      verdict([
        { field: 'name', op: 'notEmpty' },
        { field: 'utm.source', op: 'contains', value: 'google' },
      ]),
    ).toMatchObject({
      kept: false,
      reason: 'FILTERED: utm.source contains "google"',
    });
  });
});

describe('option schema', () => {
  it('accepts a full policy and keeps unrelated keys', () => {
    const parsed = ZSourceOptions.parse({
      mapping: [{ from: ['a', 'b'], to: 'custom.x', transform: ['trim'] }],
      filters: [{ field: 'phone', op: 'notEmpty' }],
      dedupe: { sourceIdField: 'leadgen_id', bodyWindowHours: 24 },
      other: 1,
    });
    expect(parsed.other).toBe(1);
  });

  it.each([
    [{ mapping: [{ from: 'a', to: 'address' }] }],
    [{ mapping: [{ from: '', to: 'name' }] }],
    [{ mapping: [{ from: 'a', to: 'name', transform: ['reverse'] }] }],
    [{ filters: [{ field: 'phone', op: 'equals' }] }],
    [{ filters: [{ field: 'phone', op: 'regex', value: '([' }] }],
    [{ filters: [{ field: 'phone', op: 'like', value: 'x' }] }],
    [{ dedupe: { bodyWindowHours: 0 } }],
  ])('refuses %j', (options) => {
    expect(ZSourceOptions.safeParse(options).success).toBe(false);
  });
});

describe('canonicalJson', () => {
  it('gives the same text whatever the key order', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe(
      canonicalJson({ a: { c: null, d: [1, { x: 1, y: 2 }] }, b: 1 }),
    );
    expect(canonicalJson({ a: 1 })).not.toBe(canonicalJson({ a: '1' }));
  });
});

describe('names from outside are data (issue 27)', () => {
  const members = [
    ...Object.getOwnPropertyNames(Object.prototype),
    ...Object.getOwnPropertyNames(Function.prototype),
  ].filter((m) => m !== 'name'); // Function.prototype.name is also the well-known lead field

  it.each(members.flatMap((m) => [m, m.toUpperCase()]))('a payload key %j is an ordinary custom field', (key) => {
    const payload = JSON.parse(`{"phone":"0501234567",${JSON.stringify(key)}:"x"}`) as Record<string, unknown>;
    const lead = applyMapping(payload, undefined);
    expect(lead.phone).toBe('+380501234567');
    expect(Object.getPrototypeOf(lead.custom)).toBe(Object.prototype);
    if (/^[A-Za-z0-9_\-.]{1,64}$/.test(key)) expect(Object.hasOwn(lead.custom, key) && lead.custom[key]).toBe('x');
    expect(JSON.parse(JSON.stringify(lead)).phone).toBe('+380501234567');
  });

  it('paths, rules and filters never reach inherited members', () => {
    expect(getPath({ a: {} }, 'a.constructor')).toBeUndefined();
    expect(getPath({}, '__proto__')).toBeUndefined();
    expect(getPath({}, 'toString')).toBeUndefined();
    const lead = applyMapping({ city: 'Kyiv' }, [{ from: 'constructor.name', to: 'custom.constructor' }]);
    expect(lead.custom).toEqual({ city: 'Kyiv' });
    expect(Object.hasOwn(lead.custom, 'constructor')).toBe(false);
    const mapped = applyMapping({ city: 'Kyiv' }, [{ from: 'city', to: 'custom.__proto__' }]);
    expect(Object.hasOwn(mapped.custom, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(mapped.custom)).toBe(Object.prototype);
    expect(evaluateFilters(lead, {}, [{ field: 'custom.constructor', op: 'notEmpty' }]).kept).toBe(false);
    expect(evaluateFilters(lead, {}, [{ field: 'toString', op: 'empty' }]).kept).toBe(true);
  });
});
