import { describe, expect, it } from 'vitest';
import { isUspacyHost, parseIncomingWebhook, portalOrigin, ZUspacyConnectBody, ZUspacySettings } from './schema';

const ID = '11111111-1111-4111-8111-111111111111';

describe('Uspacy addresses', () => {
  it('reads a portal however it is typed', () => {
    const origin = (s: string) => portalOrigin(s)?.origin;
    expect(origin('acme')).toBe('https://acme.uspacy.ua');
    expect(origin(' acme.uspacy.ua ')).toBe('https://acme.uspacy.ua');
    expect(origin('https://ACME.uspacy.ua/crm/leads?x=1')).toBe('https://acme.uspacy.ua');
    expect(origin('http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080');
    for (const bad of ['', 'ftp://acme.uspacy.ua', 'https://user:pw@acme.uspacy.ua', 'not a host']) {
      expect(origin(bad), bad).toBeUndefined();
    }
    expect(isUspacyHost(portalOrigin('acme')!)).toBe(true);
    expect(isUspacyHost(portalOrigin('https://uspacy.ua.evil.com')!)).toBe(false);
    expect(isUspacyHost(portalOrigin('http://acme.uspacy.ua')!)).toBe(false);
  });

  it('accepts an incoming webhook URL only in its own shape', () => {
    expect(parseIncomingWebhook('https://acme.uspacy.ua/company/v1/incoming_webhooks/run/ihMDgsDwRND5FdOD/')).toEqual({
      origin: 'https://acme.uspacy.ua',
      key: 'ihMDgsDwRND5FdOD',
    });
    for (const bad of [
      'https://acme.uspacy.ua/company/v1/incoming_webhooks/run/',
      'https://acme.uspacy.ua/company/v1/incoming_webhooks/run/short',
      'https://acme.uspacy.ua/company/v1/incoming_webhooks/run/ihMDgsDwRND5FdOD/crm/v1/entities/leads',
      'https://acme.uspacy.ua/company/v1/incoming_webhooks/run/ihMDgsDwRND5FdOD?x=1',
      'https://acme.uspacy.ua/company/v1/webhooks/ihMDgsDwRND5FdOD',
      'javascript:alert(1)',
    ]) {
      expect(parseIncomingWebhook(bad), bad).toBeUndefined();
    }
  });
});

describe('Uspacy schemas', () => {
  it('connect takes one of the two ways, each with what it needs', () => {
    expect(ZUspacyConnectBody.safeParse({ mode: 'webhook', integrationId: ID, webhookUrl: 'x' }).success).toBe(true);
    expect(
      ZUspacyConnectBody.safeParse({
        mode: 'password',
        integrationId: ID,
        portal: 'acme',
        email: 'a@b.ua',
        password: 'p',
      }).success,
    ).toBe(true);
    expect(
      ZUspacyConnectBody.safeParse({ mode: 'password', integrationId: ID, portal: 'acme', email: 'a@b.ua' }).success,
    ).toBe(false);
    expect(ZUspacyConnectBody.safeParse({ mode: 'token', integrationId: ID }).success).toBe(false);
  });

  it('settings default to a lead with a comment; a field code is a code', () => {
    expect(ZUspacySettings.parse({})).toEqual({ target: 'lead', note: true });
    expect(ZUspacySettings.safeParse({ fields: [{ from: 'name', entity: 'deal', code: 'uf_crm_1' }] }).success).toBe(
      true,
    );
    expect(ZUspacySettings.safeParse({ fields: [{ from: 'name', entity: 'deal', code: 'a b' }] }).success).toBe(false);
    expect(ZUspacySettings.safeParse({ fields: [{ from: 'nope', entity: 'lead', code: 'city' }] }).success).toBe(false);
    expect(ZUspacySettings.safeParse({ target: 'company' }).success).toBe(false);
  });
});
