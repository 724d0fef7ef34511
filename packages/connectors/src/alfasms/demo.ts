// EMULATORS=true: AlphaSMS on loopback; a demo user types in its key and a registered alpha-name.
import type { ConnectorDemo } from '../kit/types';
import { ALPHASMS_EMULATOR_KEY, ALPHASMS_SENDERS, startAlphaSmsEmulator } from './emulator';

export async function startDemo(): Promise<ConnectorDemo> {
  const emulator = await startAlphaSmsEmulator();
  return {
    config: { ALFASMS_API_URL: emulator.url },
    info: { url: emulator.url, apiKey: ALPHASMS_EMULATOR_KEY, senders: [...ALPHASMS_SENDERS] },
    close: () => emulator.close(),
  };
}
