// EMULATORS=true: one Prom.ua API every demo account (and every end-to-end test) connects to. A demo
// user types in the demo store's token; a test makes a store of its own (POST /__emulator/companies).
import type { ConnectorDemo } from '../kit/types';
import { startPromEmulator } from './emulator';

export async function startDemo(): Promise<ConnectorDemo> {
  const emulator = await startPromEmulator();
  return {
    config: { PROMUA_API_URL: emulator.url },
    info: { url: emulator.origin, apiUrl: emulator.url, token: emulator.token },
    close: () => emulator.close(),
  };
}
