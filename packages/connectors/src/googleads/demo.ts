// EMULATORS=true: Google Ads' stand-in every demo account (and every end-to-end test) uses to send a
// lead or test data to its integration's address; it sends only to this app.
import type { ConnectorDemo } from '../kit/types';
import { startGoogleAdsEmulator } from './emulator';

export async function startDemo(app: { publicUrl: string }): Promise<ConnectorDemo> {
  const emulator = await startGoogleAdsEmulator({ allowedOrigin: app.publicUrl });
  return { config: {}, info: { url: emulator.url }, close: () => emulator.close() };
}
