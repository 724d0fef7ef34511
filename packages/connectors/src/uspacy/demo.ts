// EMULATORS=true: a Uspacy portal on loopback: the account to sign in with, or its incoming webhook URL.
import type { ConnectorDemo } from '../kit/types';
import { startUspacyEmulator, USPACY_DEMO_WEBHOOK_KEY } from './emulator';

export async function startDemo(): Promise<ConnectorDemo> {
  const emulator = await startUspacyEmulator({ webhookKey: USPACY_DEMO_WEBHOOK_KEY });
  return {
    config: { USPACY_HOSTS: emulator.host },
    info: { url: emulator.url, email: emulator.email, password: emulator.password, webhookUrl: emulator.webhookUrl },
    close: () => emulator.close(),
  };
}
