// EMULATORS=true: the Measurement Protocol on loopback, with a stream's measurement id and API secret.
import type { ConnectorDemo } from '../kit/types';
import { GA_EMULATOR_STREAM, startGaEmulator } from './emulator';

export async function startDemo(): Promise<ConnectorDemo> {
  const emulator = await startGaEmulator();
  return {
    config: { GA_API_URL: emulator.url },
    info: { url: emulator.url, ...GA_EMULATOR_STREAM },
    close: () => emulator.close(),
  };
}
