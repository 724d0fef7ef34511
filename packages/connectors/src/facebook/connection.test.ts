// What the Facebook folder declares for its account connections: the receiver's checks, the
// events it makes of Meta's body, the errors it classes, and the spec's paths as aliases.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { InboundRefusal } from '../kit/connection';
import { GraphError } from './client';
import { facebookVerifyToken, facebookConnections as fb } from './connection';

const SECRET = 'app-secret-for-tests';
const config = { FACEBOOK_APP_ID: '1001', FACEBOOK_APP_SECRET: SECRET };
const sign = (raw: string) => `sha256=${createHmac('sha256', SECRET).update(raw).digest('hex')}`;
const RAW =
  '{"object":"page","entry":[{"id":"201","time":1717236930,"changes":[{"field":"leadgen","value":{"leadgen_id":"901","page_id":"201","form_id":"301"}},{"field":"leadgen","value":{"leadgen_id":"902","page_id":"201"}}]}]}';

describe("the leadgen receiver's verification", () => {
  const verify = (query: Record<string, string>, cfg: Record<string, string> = config) =>
    fb.inbound.receiver.verify(cfg, query);

  it('echoes the challenge to our verify token only (set, or derived from the app secret)', () => {
    const derived = facebookVerifyToken(config)!;
    expect(derived).toMatch(/^[0-9a-f]{40}$/);
    expect(verify({ 'hub.mode': 'subscribe', 'hub.verify_token': derived, 'hub.challenge': 'c-1' })).toBe('c-1');
    expect(verify({ 'hub.mode': 'subscribe', 'hub.verify_token': 'other', 'hub.challenge': 'c-1' })).toBeNull();
    expect(verify({ 'hub.mode': 'unsubscribe', 'hub.verify_token': derived, 'hub.challenge': 'c-1' })).toBeNull();
    expect(
      verify({ 'hub.mode': 'subscribe', 'hub.verify_token': derived, 'hub.challenge': 'x'.repeat(257) }),
    ).toBeNull();
    const own = { ...config, FACEBOOK_VERIFY_TOKEN: 'mine' };
    expect(verify({ 'hub.mode': 'subscribe', 'hub.verify_token': 'mine', 'hub.challenge': 'c-2' }, own)).toBe('c-2');
    // Not configured: nothing verifies.
    expect(verify({ 'hub.mode': 'subscribe', 'hub.verify_token': '', 'hub.challenge': 'c' }, {})).toBeNull();
  });
});

describe("the leadgen receiver's POST", () => {
  const receive = (raw: string, signature?: string, cfg: Record<string, string> = config) =>
    fb.inbound.receiver.receive(cfg, Buffer.from(raw), signature ? { 'x-hub-signature-256': signature } : {});
  const refusal = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      return error instanceof InboundRefusal ? error.code : error;
    }
    return 'accepted';
  };

  it('makes one event per leadgen change, its page the asset and its form in data', () => {
    expect(receive(RAW, sign(RAW))).toEqual([
      { externalId: '901', assetId: '201', data: { formId: '301' } },
      { externalId: '902', assetId: '201' },
    ]);
  });

  it('refuses a body whose signature is missing or wrong before reading it, and one that is not JSON', () => {
    expect(refusal(() => receive(RAW))).toBe('UNAUTHORIZED');
    expect(refusal(() => receive(RAW, sign(RAW.replace('901', '903'))))).toBe('UNAUTHORIZED');
    expect(refusal(() => receive(RAW, sign(RAW), {}))).toBe('UNAUTHORIZED');
    expect(refusal(() => receive('{not json', sign('{not json')))).toBe('INVALID_JSON');
  });
});

describe("Graph's failures", () => {
  it('are classed: a refused token or permission, a lead Facebook does not know, anything else', () => {
    const expired = new GraphError('Session has expired', { code: 190, subcode: 463, httpStatus: 400 });
    const unknown = new GraphError('Unsupported get request', { code: 100, httpStatus: 400 });
    const down = new GraphError('Service unavailable', { code: 2, httpStatus: 503 });
    expect([expired, unknown, down].map((e) => fb.errors.refused(e))).toEqual([true, false, false]);
    expect([expired, unknown, down].map((e) => fb.errors.gone(e))).toEqual([false, true, false]);
    expect(fb.errors.reason(expired)).toBe('Session has expired (code 190/463)');
    expect(fb.errors.reason(new Error('socket hang up'))).toBe('socket hang up');
  });
});

describe("the spec's Facebook paths", () => {
  it('are all declared once, each with a generic kind', () => {
    const paths = fb.aliases.map((a) => `${a.method} ${a.path}`);
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths.sort()).toEqual(
      [
        'POST /facebook/start',
        'GET /facebook/callback',
        'GET /api/facebook/connections',
        'GET /api/facebook/accountPicture',
        'GET /api/facebook/connection/:cid/accounts',
        'GET /api/facebook/connection/:cid/account/:aid',
        'POST /api/facebook/connection/:cid/account/:aid/subscribe',
        'DELETE /api/facebook/connection/:cid/account/:aid/unsubscribe',
        'GET /api/legacy/api/facebook/accessToken',
        'POST /api/legacy/api/facebook/accounts',
        'DELETE /api/legacy/api/facebook/accounts/:id',
        'POST /api/legacy/api/facebook/pages',
        'POST /api/legacy/api/facebook/leadform',
        'GET /api/legacy/api/admin/integration/fbPageItems',
        'POST /api/facebook/integration/:id/test-lead',
        'POST /api/integrations/migrate/fb/:id',
      ].sort(),
    );
    expect(fb.aliases.filter((a) => a.connection === 'action').map((a) => a.action)).toEqual(['testLead']);
    expect(Object.keys(fb.actions ?? {})).toEqual(['testLead']);
  });

  it('read names from the URL as plain strings, never as members', () => {
    const accounts = fb.aliases.find((a) => a.path === '/api/facebook/connection/:cid/accounts')!;
    expect(accounts.read!({ params: { cid: '__proto__' }, query: { refresh: '1' }, body: undefined })).toEqual({
      connectionId: '__proto__',
      refresh: true,
    });
    const page = fb.aliases.find((a) => a.path === '/api/facebook/connection/:cid/account/:aid')!;
    expect(page.read!({ params: { cid: 'constructor', aid: 'toString' }, query: {}, body: undefined })).toEqual({
      connectionId: 'constructor',
      assetId: 'toString',
    });
  });
});
