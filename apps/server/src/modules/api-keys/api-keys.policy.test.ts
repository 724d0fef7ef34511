import { describe, expect, it } from 'vitest';
import { keyMayUse } from './api-keys.policy';

describe('routes an API key may call', () => {
  it("opens the account's data and closes what is for a person at the screen", () => {
    const open = [
      '/api/account',
      '/api/auth/me',
      '/api/integrations',
      '/api/integrations/:id/update',
      '/api/hook/:id',
      '/api/report/speed-to-lead',
      '/api/invoices/:id/pdf',
      '/api/integrations/:id/connect',
    ];
    const closed = [
      '/api/auth/sessions',
      '/api/auth/sessions/:id',
      '/api/account/update-password',
      '/api/account/remove-account',
      '/api/account/clear-all-data',
      '/api/account/api-keys',
      '/api/account/api-keys/:id',
      '/api/account/anything-added-later',
      '/api/super/users/return',
      '/api/payment/renew',
      '/api/subscriptions/subscribe',
      '/api/oauth/:type/connect',
      '/api/integrations/:id/oauth/start',
      '/facebook/start',
      '/api/legacy/api/facebook/accessToken',
    ];
    expect(open.filter((url) => !keyMayUse({ url }))).toEqual([]);
    expect(closed.filter((url) => keyMayUse({ url }))).toEqual([]);
  });
});
