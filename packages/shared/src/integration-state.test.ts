import { describe, expect, it } from 'vitest';
import { computeIntegrationState, type IntegrationState, parseReason, type StateInput } from './integration-state';

const now = new Date('2025-03-01T10:00:00Z');
const working: IntegrationState = { code: 'working' };
const destination = (over: Partial<StateInput> = {}): StateInput => ({
  kind: 'destination',
  active: true,
  needsConnection: true,
  isConnected: true,
  isConfigured: true,
  status: 'ok',
  statusReason: null,
  ...over,
});
const source = (destinations: StateInput['destinations'], over: Partial<StateInput> = {}): StateInput => ({
  kind: 'source',
  active: true,
  needsConnection: false,
  isConnected: false,
  isConfigured: true,
  status: 'ok',
  statusReason: null,
  destinations,
  ...over,
});
const state = (input: StateInput) => computeIntegrationState(input, now);

describe('computeIntegrationState: one status per integration', () => {
  it('working: a connected, configured destination and a source with a working destination', () => {
    expect(state(destination())).toEqual(working);
    expect(state(source([{ name: 'CRM', active: true, state: working }]))).toEqual(working);
  });

  it('not configured: a new http destination without its URL is not "working"', () => {
    expect(state(destination({ needsConnection: false, isConnected: false, isConfigured: false }))).toEqual({
      code: 'not_configured',
    });
  });

  it('not connected: a type that keeps credentials has none yet (checked before the settings)', () => {
    expect(state(destination({ isConnected: false, isConfigured: false }))).toEqual({ code: 'not_connected' });
  });

  it('no destinations: a source with none, or with only switched-off ones', () => {
    expect(state(source([]))).toEqual({ code: 'no_destinations' });
    expect(state(source([{ name: 'CRM', active: false, state: { code: 'paused' } }]))).toEqual({
      code: 'no_destinations',
    });
  });

  it('paused: a switched-off integration says so whatever else is wrong with it', () => {
    expect(state(destination({ active: false, status: 'broken', statusReason: 'HTTP 401: no' }))).toEqual({
      code: 'paused',
    });
  });

  it('retrying: the breaker paused the destination; the reason keeps the failure and the next try', () => {
    const s = state(
      destination({
        status: 'broken',
        statusReason:
          'Paused after 5+ failures in a row: HTTP 503: Service Unavailable — leads wait; next try at 2025-03-01 10:05:00 UTC',
      }),
    );
    expect(s).toEqual({
      code: 'retrying',
      reason: {
        code: 'HTTP_5XX',
        params: { status: 503, answer: 'Service Unavailable', failures: 5, retryAt: '2025-03-01T10:05:00.000Z' },
      },
    });
  });

  it('retrying: a destination inside its breaker pause while still marked ok', () => {
    const until = new Date('2025-03-01T10:05:00Z');
    expect(state(destination({ pausedUntil: until }))).toEqual({
      code: 'retrying',
      reason: { code: 'PAUSED', params: { retryAt: until.toISOString() } },
    });
  });

  it('broken: auth when credentials were refused, other for the rest', () => {
    expect(state(destination({ status: 'broken', statusReason: 'HTTP 401: Unauthorized' }))).toEqual({
      code: 'broken_auth',
      reason: { code: 'AUTH', params: { status: 401, answer: 'Unauthorized' } },
    });
    // A connector's own code that means "connect again" (its codes.ts `reconnect`), told with the input.
    const refused = { status: 'broken' as const, statusReason: 'ALPHASMS_ACCESS_DENIED' };
    expect(state(destination({ ...refused, reconnect: ['ALPHASMS_ACCESS_DENIED'] })).code).toBe('broken_auth');
    expect(state(destination(refused)).code).toBe('broken_other');
    expect(state(destination({ status: 'broken', statusReason: 'URL_NOT_ALLOWED: private address' }))).toEqual({
      code: 'broken_other',
      reason: { code: 'URL_NOT_ALLOWED' },
    });
  });

  it('a source is not "working" while its destination fails: it names the destination', () => {
    const broken: IntegrationState = { code: 'broken_auth', reason: { code: 'AUTH' } };
    const retrying: IntegrationState = { code: 'retrying' };
    expect(
      state(
        source([
          { name: 'Shop', active: true, state: retrying },
          { name: 'CRM', active: true, state: broken },
        ]),
      ),
    ).toEqual({
      code: 'broken_other',
      reason: { code: 'DESTINATION_BROKEN', params: { name: 'CRM', state: 'broken_auth' } },
    });
    expect(state(source([{ name: 'Shop', active: true, state: retrying }]))).toEqual({
      code: 'retrying',
      reason: { code: 'DESTINATION_RETRYING', params: { name: 'Shop', state: 'retrying' } },
    });
    expect(state(source([{ name: 'Hook', active: true, state: { code: 'not_configured' } }])).reason).toEqual({
      code: 'DESTINATION_BROKEN',
      params: { name: 'Hook', state: 'not_configured' },
    });
  });
});

describe('parseReason: stored English texts become codes with parameters', () => {
  it.each([
    ['No active destination', { code: 'NO_ACTIVE_DESTINATION' }],
    ['HTTP 404: Not Found', { code: 'HTTP_4XX', params: { status: 404, answer: 'Not Found' } }],
    ['HTTP 429', { code: 'RATE_LIMITED', params: { status: 429 } }],
    [
      'TIMEOUT: no answer from shop.example.com within 10000 ms',
      { code: 'TIMEOUT', params: { host: 'shop.example.com', seconds: 10 } },
    ],
    ['NETWORK: shop.example.com: connection refused', { code: 'NETWORK', params: { host: 'shop.example.com' } }],
    ['NETWORK: cannot resolve nowhere.example: ENOTFOUND', { code: 'NETWORK', params: { host: 'nowhere.example' } }],
    ['TOO_MANY_REDIRECTS: more than 5 redirects from https://a.example', { code: 'TOO_MANY_REDIRECTS' }],
    ['ALPHASMS_SENDER_INVALID — reconnect the integration', { code: 'ALPHASMS_SENDER_INVALID' }],
    // Data and the destination's own words stay beside the code.
    ['SMS_PHONE_NOT_MOBILE: +380442345678', { code: 'SMS_PHONE_NOT_MOBILE', params: { detail: '+380442345678' } }],
    ['something odd', { code: 'UNKNOWN', params: { detail: 'something odd' } }],
    // A hook's reasons: a filter that did not hold (the user's own field and value), a repeat; as
    // stored now (codes), and as rows stored before 27 November 2026 say it.
    [
      'FILTERED: utm.source not equals "facebook ads"',
      { code: 'FILTERED', params: { field: 'utm.source', op: 'equals', negate: 1, value: 'facebook ads' } },
    ],
    ['FILTERED: email notEmpty', { code: 'FILTERED', params: { field: 'email', op: 'notEmpty', negate: 0 } }],
    [
      'DUPLICATE_OF: 0b8e3c1e-5d7a-4f7e-9a51-1f2b3c4d5e6f',
      { code: 'DUPLICATE_OF', params: { id: '0b8e3c1e-5d7a-4f7e-9a51-1f2b3c4d5e6f' } },
    ],
    [
      'Filter failed: utm.source not equals "facebook ads"',
      { code: 'FILTERED', params: { field: 'utm.source', op: 'equals', negate: 1, value: 'facebook ads' } },
    ],
    ['Filter failed: phone empty', { code: 'FILTERED', params: { field: 'phone', op: 'empty', negate: 0 } }],
    ['Repeat of 6650f0c2a1', { code: 'DUPLICATE_OF', params: { id: '6650f0c2a1' } }],
  ])('%s', (text, reason) => {
    expect(parseReason(text)).toEqual(reason);
  });

  it("reads a connector's reason stored in its service's own words by the form it declares, the text its detail", () => {
    const forms = [{ pattern: /\(code (190|102)(\/\d+)?\)$/, code: 'SERVICE_TOKEN' }];
    const stored = 'Error validating access token: Session has expired (code 190/463)';
    expect(parseReason(stored, forms)).toEqual({ code: 'SERVICE_TOKEN', params: { detail: stored } });
    // Inside a pause too; and without the forms, a text it cannot tell is UNKNOWN, kept as the detail.
    expect(parseReason(`Paused after 5+ failures in a row: ${stored}`, forms).code).toBe('SERVICE_TOKEN');
    expect(parseReason(stored)).toEqual({ code: 'UNKNOWN', params: { detail: stored } });
  });
});
