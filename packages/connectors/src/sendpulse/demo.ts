// EMULATORS=true: SendPulse's API on loopback, with the client id and secret a demo user types in.
import type { ConnectorDemo } from '../kit/types';
import { SENDPULSE_CLIENT, startSendpulseEmulator } from './emulator';

export async function startDemo(): Promise<ConnectorDemo> {
  const emulator = await startSendpulseEmulator();
  return {
    config: { SENDPULSE_API_URL: emulator.url },
    info: { url: emulator.url, clientId: SENDPULSE_CLIENT.id, clientSecret: SENDPULSE_CLIENT.secret },
    close: () => emulator.close(),
  };
}
