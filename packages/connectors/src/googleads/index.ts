// Google Ads lead form extensions as a lead SOURCE (issue 32): Google POSTs each lead to the webhook
// address pasted into the lead form, with the key pasted beside it. Everything the server needs is
// declared here (source.ts): the key made by the connect, the receiver that checks it, how a lead
// becomes one (mapping.ts) and what the integration page reads. The server has no module of its own.
import { defineConnector } from '../kit/define-connector';
import { codes } from './codes';
import { type GoogleAdsAuth, type GoogleAdsSettings, ZGoogleAdsAuth, ZGoogleAdsSettings } from './schema';
import { googleAdsAliases, googleAdsSource } from './source';

export const googleads = defineConnector<GoogleAdsAuth, GoogleAdsSettings>({
  slug: 'googleads',
  kind: 'source',
  codes,
  // EMULATORS=true (demo installs, end-to-end tests): Google Ads' stand-in that sends leads, loaded only then.
  demo: (app) => import('./demo').then((m) => m.startDemo(app)),
  // The key is made by our connect only (PUT …/connect cannot set one).
  connectAuth: 'own',
  auth: ZGoogleAdsAuth,
  settings: ZGoogleAdsSettings,
  source: googleAdsSource,
  aliases: googleAdsAliases,
});

export type { GoogleAdsAuth } from './schema';
