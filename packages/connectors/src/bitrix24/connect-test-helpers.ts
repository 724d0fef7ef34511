// Test helper: the connect's credentials and account as the server would run them, with an allowed-hosts list.
import type { ConnectCall } from '../kit/types';
import type { Bitrix24Auth } from './client';
import { bitrix24Account, bitrix24Connect } from './connect';

export function bitrix24ConnectForTest(hosts: string[]) {
  const call: ConnectCall = {
    fetch,
    signal: new AbortController().signal,
    config: {},
    allowedOrigin: (url) => (url.protocol === 'https:' && hosts.includes(url.host) ? url.origin : undefined),
  };
  return {
    credentials: (webhookUrl: string) =>
      bitrix24Connect.credentials(call, { integrationId: '00000000-0000-4000-8000-000000000000', webhookUrl }),
    account: (auth: Bitrix24Auth | undefined) => bitrix24Account.describe(auth),
  };
}
