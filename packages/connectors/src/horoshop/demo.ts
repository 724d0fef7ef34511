// EMULATORS=true: one Horoshop shop every demo account (and every end-to-end test) connects to, so
// more than a real shop's 5 webhooks per event; /__emulator/orders makes orders and fires their webhook.
import type { ConnectorDemo } from '../kit/types';
import { startHoroshopEmulator } from './emulator';

export async function startDemo(): Promise<ConnectorDemo> {
  const emulator = await startHoroshopEmulator({ maxSubscriptionsPerEvent: 1000 });
  return {
    config: {},
    info: { url: emulator.url, login: emulator.login, password: emulator.password },
    close: () => emulator.close(),
  };
}
