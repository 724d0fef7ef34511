import { amocrm, pipedrive } from '@leadrelay/connectors';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CRM_CONFIG } from '../config';
import { oauthClientFor } from '../delivery/connector-runtime';
import { configField, connectorConfig, readConnectorConfig } from './connector-config';

describe('connector configuration keys', () => {
  it('keeps a key under its connector, camel-cased without the slug', () => {
    expect(configField('amocrm', 'AMOCRM_CLIENT_ID')).toBe('clientId');
    expect(configField('pipedrive', 'PIPEDRIVE_API_URL')).toBe('apiUrl');
    expect(configField('sendpulse', 'SENDPULSE_API_URL')).toBe('apiUrl');
  });

  it('reads the declared keys from the environment, with the definitions’ defaults', () => {
    const { crm, problems } = readConnectorConfig({
      AMOCRM_CLIENT_ID: 'cid',
      AMOCRM_HOSTS: ' A.amocrm.ru , ',
      PIPEDRIVE_OAUTH_URL: 'https://oauth.example.com///',
      PIPEDRIVE_CLIENT_SECRET: '  ',
    });
    expect(problems).toEqual([]);
    expect(crm.amocrm).toMatchObject({
      clientId: 'cid',
      hosts: ['a.amocrm.ru'],
      oauthUrl: 'https://www.amocrm.ru/oauth',
    });
    expect(crm.pipedrive).toMatchObject({ oauthUrl: 'https://oauth.example.com', clientSecret: undefined });
    expect(crm.sendpulse).toEqual({ apiUrl: 'https://api.sendpulse.com' });
  });

  it('names the key of a malformed URL', () => {
    expect(readConnectorConfig({ PIPEDRIVE_API_URL: 'not a url' }).problems).toEqual([
      expect.stringMatching(/^PIPEDRIVE_API_URL: /),
    ]);
  });

  it('gives the production defaults the app used before', () => {
    expect(DEFAULT_CRM_CONFIG).toMatchObject({
      amocrm: { oauthUrl: 'https://www.amocrm.ru/oauth', hosts: ['*.amocrm.ru', '*.amocrm.com', '*.kommo.com'] },
      pipedrive: {
        oauthUrl: 'https://oauth.pipedrive.com',
        apiUrl: 'https://api.pipedrive.com',
        hosts: ['*.pipedrive.com', 'api.pipedrive.com'],
      },
      sendpulse: { apiUrl: 'https://api.sendpulse.com' },
    });
  });

  it('builds the app OAuth client from the keys the definition names', () => {
    const config = {
      publicUrl: 'https://app.test',
      authHost: 'https://auth.test',
      crm: { ...DEFAULT_CRM_CONFIG, pipedrive: { ...DEFAULT_CRM_CONFIG.pipedrive, clientId: 'p', clientSecret: 's' } },
    };
    expect(connectorConfig(config.crm, pipedrive).PIPEDRIVE_CLIENT_ID).toBe('p');
    expect(oauthClientFor(config, pipedrive as never)).toEqual({
      clientId: 'p',
      clientSecret: 's',
      authorizeUrl: 'https://oauth.pipedrive.com/oauth/authorize',
      tokenUrl: 'https://oauth.pipedrive.com/oauth/token',
      redirectUri: 'https://auth.test/pipedrive/callback',
    });
    expect(oauthClientFor(config, amocrm as never)).toBeUndefined();
  });
});
