import { describe, expect, it } from 'vitest';
import { GA_MAX_CUSTOM_PARAMS, gaNameIssue, gaPayloadIssues, ZGaSettings } from './schema';

describe('GA4 names', () => {
  it('takes a letter first, then letters, digits and underscores, up to 40', () => {
    expect(gaNameIssue('generate_lead', 'event')).toBeNull();
    expect(gaNameIssue('lead_2', 'param')).toBeNull();
    expect(gaNameIssue('a'.repeat(40), 'event')).toBeNull();
    expect(gaNameIssue('a'.repeat(41), 'event')).toBe('GA_NAME_TOO_LONG');
    expect(gaNameIssue('2lead', 'event')).toBe('GA_NAME_INVALID');
    expect(gaNameIssue('lead form', 'param')).toBe('GA_NAME_INVALID');
    expect(gaNameIssue('лід', 'event')).toBe('GA_NAME_INVALID');
    expect(gaNameIssue('', 'event')).toBe('GA_NAME_INVALID');
  });

  it('refuses reserved names and prefixes', () => {
    expect(gaNameIssue('session_start', 'event')).toBe('GA_NAME_RESERVED');
    expect(gaNameIssue('first_visit', 'event')).toBe('GA_NAME_RESERVED');
    expect(gaNameIssue('_lead', 'event')).toBe('GA_NAME_RESERVED');
    expect(gaNameIssue('ga_lead', 'param')).toBe('GA_NAME_RESERVED');
    expect(gaNameIssue('google_x', 'param')).toBe('GA_NAME_RESERVED');
    expect(gaNameIssue('firebase_x', 'event')).toBe('GA_NAME_RESERVED');
    expect(gaNameIssue('session_id', 'param')).toBe('GA_NAME_RESERVED');
    // A reserved parameter name is a fine event name and the other way round.
    expect(gaNameIssue('session_id', 'event')).toBeNull();
  });
});

describe('GA4 settings', () => {
  const issues = (value: unknown) =>
    (ZGaSettings.safeParse(value).error?.issues ?? []).map((i) => `${i.path.join('.')}:${i.message}`);

  it('defaults to generate_lead in UAH with the client id from the _ga cookie', () => {
    expect(ZGaSettings.parse({ measurementId: 'G-ABC1234' })).toMatchObject({
      eventName: 'generate_lead',
      currency: 'UAH',
      region: 'global',
      clientIdField: 'custom._ga',
      utm: true,
      params: [],
    });
  });

  it('refuses a bad measurement id, event name, parameter name, duplicates and too many parameters', () => {
    expect(issues({ measurementId: 'UA-12345-1' })).toEqual(['measurementId:GA_MEASUREMENT_ID_INVALID']);
    expect(issues({ measurementId: 'G-ABC1234', eventName: 'page_view' })).toEqual(['eventName:GA_NAME_RESERVED']);
    expect(issues({ measurementId: 'G-ABC1234', params: [{ name: '1x', from: 'name' }] })).toEqual([
      'params.0.name:GA_NAME_INVALID',
    ]);
    expect(
      issues({
        measurementId: 'G-ABC1234',
        params: [
          { name: 'city', from: 'custom.city' },
          { name: 'city', from: 'custom.town' },
          { name: 'currency', from: 'custom.cur' },
        ],
      }),
    ).toEqual(['params.1.name:GA_PARAM_DUPLICATE', 'params.2.name:GA_PARAM_DUPLICATE']);
    const many = Array.from({ length: GA_MAX_CUSTOM_PARAMS + 1 }, (_, i) => ({ name: `p${i}`, from: 'name' }));
    expect(issues({ measurementId: 'G-ABC1234', params: many })).toEqual([`params:MAX_LENGTH_${GA_MAX_CUSTOM_PARAMS}`]);
    expect(issues({ measurementId: 'G-ABC1234', currency: 'uah' })).toEqual(['currency:VALIDATION_ERROR']);
  });
});

describe('GA4 payload limits', () => {
  const event = (params: Record<string, string | number> = {}) => ({ name: 'generate_lead', params });

  it('passes a lead event within the limits', () => {
    expect(gaPayloadIssues({ client_id: '1.2', events: [event({ currency: 'UAH', value: 100 })] })).toEqual([]);
  });

  it('names each broken limit by its path', () => {
    const params = Object.fromEntries(Array.from({ length: 26 }, (_, i) => [`p${i}`, 'x']));
    expect(
      gaPayloadIssues({
        client_id: '',
        user_id: 'u'.repeat(257),
        events: [event(params), { name: 'page_view', params: { _bad: 'x', note: 'y'.repeat(101) } }],
      }),
    ).toEqual([
      { code: 'GA_CLIENT_ID_MISSING', path: 'client_id' },
      { code: 'GA_USER_ID_TOO_LONG', path: 'user_id' },
      { code: 'GA_TOO_MANY_PARAMS', path: 'events[0].params' },
      { code: 'GA_NAME_RESERVED', path: 'events[1].name' },
      { code: 'GA_NAME_RESERVED', path: 'events[1].params._bad' },
      { code: 'GA_VALUE_TOO_LONG', path: 'events[1].params.note' },
    ]);
    const lots = Array.from({ length: 26 }, () => event());
    expect(gaPayloadIssues({ client_id: '1.2', events: lots })).toEqual([
      { code: 'GA_TOO_MANY_EVENTS', path: 'events' },
    ]);
  });
});
