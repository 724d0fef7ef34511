// EMULATORS=true: TikTok's API for Business on loopback (its consent page, ad accounts, Instant Forms
// and LEAD webhook), the app's keys pointing at it. Its control API (/__emulator/submit-lead) makes a
// person submit a form.
import type { ConnectorDemo } from '../kit/types';
import { startTiktokEmulator } from './emulator';

export async function startDemo(): Promise<ConnectorDemo> {
  const emu = await startTiktokEmulator({ appId: '7300000000000000099', appSecret: 'demo-tiktok-app-secret' });
  return {
    config: {
      TIKTOK_APP_ID: emu.appId,
      TIKTOK_APP_SECRET: emu.appSecret,
      TIKTOK_API_URL: emu.apiUrl,
      TIKTOK_AUTH_URL: emu.authUrl,
    },
    info: { url: emu.url },
    close: () => emu.close(),
  };
}
