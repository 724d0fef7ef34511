import { describe, expect, it } from 'vitest';
import { readOAuthState, screenUrl, signOAuthState } from './oauth-state';

const SECRET = 'x'.repeat(40);

describe('OAuth state', () => {
  it('round-trips the account, the integration and the language', async () => {
    const token = await signOAuthState(SECRET, 'amocrm', { accountId: 'a1', integrationId: 'i1', locale: 'en' });
    expect(await readOAuthState(SECRET, 'amocrm', token)).toEqual({
      accountId: 'a1',
      integrationId: 'i1',
      locale: 'en',
    });
  });

  it('refuses a state of another flow, another secret, or none', async () => {
    const token = await signOAuthState(SECRET, 'amocrm', { accountId: 'a1', locale: 'uk' });
    expect(await readOAuthState(SECRET, 'pipedrive', token)).toBeNull();
    expect(await readOAuthState('y'.repeat(40), 'amocrm', token)).toBeNull();
    expect(await readOAuthState(SECRET, 'amocrm', undefined)).toBeNull();
    expect(await readOAuthState(SECRET, 'amocrm', 'not-a-jwt')).toBeNull();
  });

  it('sends English users back to /en screens', () => {
    expect(screenUrl('https://app.test', 'en', '/admin/x')).toBe('https://app.test/en/admin/x');
    expect(screenUrl('https://app.test', 'uk', '/admin/x')).toBe('https://app.test/admin/x');
  });
});
