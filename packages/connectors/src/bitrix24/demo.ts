// EMULATORS=true: a Bitrix24 portal on loopback and its inbound webhook address to paste.
import type { ConnectorDemo } from '../kit/types';
import { BITRIX24_DEMO_WEBHOOK_CODE, startBitrix24Emulator } from './emulator';

export async function startDemo(): Promise<ConnectorDemo> {
  const emulator = await startBitrix24Emulator({ webhookCode: BITRIX24_DEMO_WEBHOOK_CODE });
  return {
    config: { BITRIX24_HOSTS: emulator.host },
    info: { url: emulator.url, webhookUrl: emulator.webhookUrl },
    close: () => emulator.close(),
  };
}
