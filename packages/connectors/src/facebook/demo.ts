// EMULATORS=true: the Graph API on loopback (its login dialog, pages, lead forms and leadgen webhook),
// the app's keys pointing at it; sign-in with Facebook reads the same keys. Its control API
// (/__emulator/submit-lead) makes "send a test lead" work.
import type { ConnectorDemo } from '../kit/types';
import { startGraphEmulator } from './emulator';

export async function startDemo(): Promise<ConnectorDemo> {
  const graph = await startGraphEmulator({ appId: 'demo-facebook-app', appSecret: 'demo-facebook-app-secret' });
  return {
    config: {
      FACEBOOK_APP_ID: graph.appId,
      FACEBOOK_APP_SECRET: graph.appSecret,
      FACEBOOK_GRAPH_URL: graph.graphUrl,
      FACEBOOK_DIALOG_URL: graph.dialogUrl,
    },
    info: { url: graph.url },
    close: () => graph.close(),
  };
}
