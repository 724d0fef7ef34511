// EMULATORS=true: the amoCRM, Pipedrive, SendPulse, AlphaSMS, GA4, Graph API, Horoshop, Uspacy, Telegram, NBU rate and LiqPay emulators run inside the server on
// loopback, and the connectors (OAuth included) and payments point at them. For demo installs and the end-to-end suite:
// a CRM can be connected and leads watched arriving without an account at the real service.
import { ALPHASMS_EMULATOR_KEY, ALPHASMS_SENDERS, startAlphaSmsEmulator } from '@leadrelay/connectors/alfasms/emulator';
import { startAmoEmulator } from '@leadrelay/connectors/amocrm/emulator';
import { startGraphEmulator } from '@leadrelay/connectors/facebook/emulator';
import { GA_EMULATOR_STREAM, startGaEmulator } from '@leadrelay/connectors/ga/emulator';
import { startHoroshopEmulator } from '@leadrelay/connectors/horoshop/emulator';
import { startPipedriveEmulator } from '@leadrelay/connectors/pipedrive/emulator';
import { SENDPULSE_CLIENT, startSendpulseEmulator } from '@leadrelay/connectors/sendpulse/emulator';
import { startTelegramEmulator } from '@leadrelay/connectors/telegram/emulator';
import { startUspacyEmulator, USPACY_DEMO_WEBHOOK_KEY } from '@leadrelay/connectors/uspacy/emulator';
import type { CrmConfig, FacebookConfig, PaymentConfig } from './config';
import { startNbuEmulator } from './modules/currency/nbu-emulator';
import { startLiqPayEmulator } from './modules/payments/providers/liqpay/liqpay-emulator';

export interface DemoEmulators {
  crm: CrmConfig;
  facebook: FacebookConfig;
  /** The exchange-rate stand-in (the National Bank of Ukraine's API is not reached from a demo). */
  nbuRatesUrl: string;
  /** Payments go to the LiqPay emulator: its checkout page and API, its sandbox keys, test payments count. */
  payment: PaymentConfig;
  /** What GET /api/emulators answers: where each emulator is and the credentials a demo user types in. */
  info: {
    amocrm: { url: string };
    pipedrive: { url: string; apiToken: string };
    sendpulse: { url: string; clientId: string; clientSecret: string };
    /** The Graph API emulator; its control API (/__emulator/submit-lead) makes "send a test lead" work. */
    facebook: { url: string };
    /** The LiqPay emulator (its checkout page has Pay / Decline / 3-D Secure fails). */
    liqpay: { url: string; publicKey: string };
    /** AlphaSMS: the API key and the registered alpha-names to type in; its control API shows the texts. */
    alfasms: { url: string; apiKey: string; senders: string[] };
    /** GA4 Measurement Protocol: a stream's measurement id and API secret. */
    ga: { url: string; measurementId: string; apiSecret: string };
    /** A Horoshop shop: its address and API admin to connect with; /__emulator/orders makes orders and fires their webhook. */
    horoshop: { url: string; login: string; password: string };
    /** Uspacy: the portal's address, the account to sign in with, or its incoming webhook URL. */
    uspacy: { url: string; email: string; password: string; webhookUrl: string };
    /**
     * The Telegram Bot API: a BotFather token to connect as the account's own bot (the platform's bot
     * is emulated too); its control API adds managers, makes them write to the bot and press buttons.
     */
    telegram: { url: string; botToken: string };
  };
  /**
   * The emulators' own `address:port` endpoints: the only private addresses EMULATORS=true opens to
   * connectors (ALLOW_PRIVATE_DESTINATIONS alone decides about the rest).
   */
  endpoints: string[];
  close(): Promise<void>;
}

/** The `host:port` of every http URL in the emulators' settings. */
function endpointsIn(value: unknown, found = new Set<string>()): string[] {
  if (typeof value === 'string' && /^http:\/\//.test(value)) {
    const url = new URL(value);
    found.add(`${url.hostname}:${url.port || 80}`);
  } else if (value && typeof value === 'object') {
    for (const item of Object.values(value)) endpointsIn(item, found);
  }
  return [...found].sort();
}

const hostOf = (url: string) => new URL(url).host;

/** The demo's Telegram bots: one a user connects as their own, and the platform's (TELEGRAM_BOT_TOKEN). */
export const TELEGRAM_DEMO_BOT_TOKEN = '7000000100:AAH-demo-own-bot-token-0123456789abcdef';
export const TELEGRAM_DEMO_PLATFORM_TOKEN = '7000000200:AAH-demo-platform-bot-token-0123456789ab';

export async function startDemoEmulators(publicUrl: string): Promise<DemoEmulators> {
  const amo = await startAmoEmulator({
    clientId: 'demo-amocrm-client',
    clientSecret: 'demo-amocrm-secret',
    redirectUri: `${publicUrl}/api/amocrm/callback`,
  });
  const pipedrive = await startPipedriveEmulator({
    clientId: 'demo-pipedrive-client',
    clientSecret: 'demo-pipedrive-secret',
    apiToken: 'demo-pipedrive-api-token',
  });
  const sendpulse = await startSendpulseEmulator();
  const graph = await startGraphEmulator({ appId: 'demo-facebook-app', appSecret: 'demo-facebook-app-secret' });
  const nbu = await startNbuEmulator();
  const liqpay = await startLiqPayEmulator();
  const alfasms = await startAlphaSmsEmulator();
  const ga = await startGaEmulator();
  // One shop every demo account (and every end-to-end test) connects to: more than a real shop's 5 webhooks per event.
  const horoshop = await startHoroshopEmulator({ maxSubscriptionsPerEvent: 1000 });
  const uspacy = await startUspacyEmulator({ webhookKey: USPACY_DEMO_WEBHOOK_KEY });
  const telegram = await startTelegramEmulator({ tokens: [TELEGRAM_DEMO_BOT_TOKEN, TELEGRAM_DEMO_PLATFORM_TOKEN] });
  const settings: Omit<DemoEmulators, 'endpoints' | 'close'> = {
    nbuRatesUrl: nbu.url,
    payment: {
      provider: 'liqpay',
      publicKey: liqpay.publicKey,
      privateKey: liqpay.privateKey,
      checkoutUrl: liqpay.checkoutUrl,
      apiUrl: liqpay.apiUrl,
      sandbox: true,
    },
    crm: {
      amocrm: { clientId: amo.clientId, clientSecret: amo.clientSecret, oauthUrl: amo.oauthUrl, hosts: [amo.host] },
      pipedrive: {
        clientId: pipedrive.clientId,
        clientSecret: pipedrive.clientSecret,
        oauthUrl: pipedrive.url,
        apiUrl: pipedrive.url,
        hosts: [hostOf(pipedrive.url)],
      },
      sendpulse: { apiUrl: sendpulse.url },
      alfasms: { apiUrl: alfasms.url },
      ga: { apiUrl: ga.url },
      uspacy: { hosts: [uspacy.host] },
      telegram: { apiUrl: telegram.url, botToken: TELEGRAM_DEMO_PLATFORM_TOKEN },
    },
    facebook: {
      appId: graph.appId,
      appSecret: graph.appSecret,
      graphUrl: graph.graphUrl,
      dialogUrl: graph.dialogUrl,
      appIdsByHost: {},
    },
    info: {
      amocrm: { url: amo.url },
      pipedrive: { url: pipedrive.url, apiToken: pipedrive.apiToken },
      sendpulse: { url: sendpulse.url, clientId: SENDPULSE_CLIENT.id, clientSecret: SENDPULSE_CLIENT.secret },
      facebook: { url: graph.url },
      liqpay: { url: liqpay.url, publicKey: liqpay.publicKey },
      alfasms: { url: alfasms.url, apiKey: ALPHASMS_EMULATOR_KEY, senders: [...ALPHASMS_SENDERS] },
      ga: { url: ga.url, ...GA_EMULATOR_STREAM },
      horoshop: { url: horoshop.url, login: horoshop.login, password: horoshop.password },
      uspacy: { url: uspacy.url, email: uspacy.email, password: uspacy.password, webhookUrl: uspacy.webhookUrl },
      telegram: { url: telegram.url, botToken: TELEGRAM_DEMO_BOT_TOKEN },
    },
  };
  return {
    ...settings,
    endpoints: endpointsIn(settings),
    close: async () => {
      await Promise.all([
        amo.close(),
        pipedrive.close(),
        sendpulse.close(),
        graph.close(),
        nbu.close(),
        liqpay.close(),
        alfasms.close(),
        ga.close(),
        horoshop.close(),
        uspacy.close(),
        telegram.close(),
      ]);
    },
  };
}
