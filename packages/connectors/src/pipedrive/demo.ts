// EMULATORS=true: Pipedrive on loopback, OAuth and API on one host, with an API token to type in.
import type { ConnectorDemo } from '../kit/types';
import { startPipedriveEmulator } from './emulator';

export async function startDemo(): Promise<ConnectorDemo> {
  const emulator = await startPipedriveEmulator({
    clientId: 'demo-pipedrive-client',
    clientSecret: 'demo-pipedrive-secret',
    apiToken: 'demo-pipedrive-api-token',
  });
  return {
    config: {
      PIPEDRIVE_CLIENT_ID: emulator.clientId,
      PIPEDRIVE_CLIENT_SECRET: emulator.clientSecret,
      PIPEDRIVE_OAUTH_URL: emulator.url,
      PIPEDRIVE_API_URL: emulator.url,
      PIPEDRIVE_HOSTS: new URL(emulator.url).host,
    },
    info: { url: emulator.url, apiToken: emulator.apiToken },
    close: () => emulator.close(),
  };
}
