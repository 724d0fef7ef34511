import { describe, expect, it } from 'vitest';
import {
  applyMapping,
  applyTransforms,
  canonicalJson,
  evaluateFilters,
  getPath,
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
    expect(verdict([{ field: 'raw.form.test', op: 'equals', value: 'yes', negate: true }])).toEqual({
      kept: false,
      reason: 'FILTERED: raw.form.test not equals "yes"',
    });
    expect(verdict([{ field: 'email', op: 'notEmpty' }])).toEqual({
      kept: false,
      reason: 'FILTERED: email notEmpty',
    });
    expect(
      verdict([
        { field: 'name', op: 'notEmpty' },
        { field: 'utm.source', op: 'contains', value: 'google' },
      ]),
    ).toEqual({
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
    expect(lead.custom).toEqual({});
    const mapped = applyMapping({ city: 'Kyiv' }, [{ from: 'city', to: 'custom.__proto__' }]);
    expect(Object.hasOwn(mapped.custom, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(mapped.custom)).toBe(Object.prototype);
    expect(evaluateFilters(lead, {}, [{ field: 'custom.constructor', op: 'notEmpty' }]).kept).toBe(false);
    expect(evaluateFilters(lead, {}, [{ field: 'toString', op: 'empty' }]).kept).toBe(true);
  });
});
