// EMULATORS=true: KeyCRM's API on loopback, with the API key a demo user types in.
import type { ConnectorDemo } from '../kit/types';
import { KEYCRM_EMULATOR_KEY, startKeycrmEmulator } from './emulator';

export async function startDemo(): Promise<ConnectorDemo> {
  const emulator = await startKeycrmEmulator();
  return {
    config: { KEYCRM_API_URL: emulator.url },
    info: { url: emulator.url, apiKey: KEYCRM_EMULATOR_KEY },
    close: () => emulator.close(),
  };
}
