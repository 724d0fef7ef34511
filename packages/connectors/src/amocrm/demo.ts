// EMULATORS=true: amoCRM on loopback, its OAuth consent included; the app's client points at it.
import type { ConnectorDemo } from '../kit/types';
import { startAmoEmulator } from './emulator';

export async function startDemo(app: { publicUrl: string }): Promise<ConnectorDemo> {
  const emulator = await startAmoEmulator({
    clientId: 'demo-amocrm-client',
    clientSecret: 'demo-amocrm-secret',
    redirectUri: `${app.publicUrl}/api/amocrm/callback`,
  });
  return {
    config: {
      AMOCRM_CLIENT_ID: emulator.clientId,
      AMOCRM_CLIENT_SECRET: emulator.clientSecret,
      AMOCRM_OAUTH_URL: emulator.oauthUrl,
      AMOCRM_HOSTS: emulator.host,
    },
    info: { url: emulator.url },
    close: () => emulator.close(),
  };
}
