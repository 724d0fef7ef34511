// EMULATORS=true: Google's OAuth, Drive and Sheets on loopback, with two spreadsheets to choose from;
// the app's client points at it.
import type { ConnectorDemo } from '../kit/types';
import { startSheetsEmulator } from './emulator';

export async function startDemo(_app: { publicUrl: string }): Promise<ConnectorDemo> {
  const emulator = await startSheetsEmulator({
    clientId: 'demo-googlesheets-client.apps.googleusercontent.com',
    clientSecret: 'demo-googlesheets-secret',
  });
  return {
    config: {
      GOOGLESHEETS_CLIENT_ID: emulator.clientId,
      GOOGLESHEETS_CLIENT_SECRET: emulator.clientSecret,
      GOOGLESHEETS_OAUTH_URL: `${emulator.url}/o/oauth2/v2/auth`,
      GOOGLESHEETS_TOKEN_URL: `${emulator.url}/token`,
      GOOGLESHEETS_API_URL: emulator.url,
    },
    info: { url: emulator.url },
    close: () => emulator.close(),
  };
}
