// EMULATORS=true: the Telegram Bot API on loopback. A BotFather token to connect as the account's own
// bot, and the platform's bot (TELEGRAM_BOT_TOKEN); its control API adds managers, makes them write
// to the bot and press buttons.
import type { ConnectorDemo } from '../kit/types';
import { startTelegramEmulator } from './emulator';

/** The demo's bots: one a user connects as their own, and the platform's. */
export const TELEGRAM_DEMO_BOT_TOKEN = '7000000100:AAH-demo-own-bot-token-0123456789abcdef';
export const TELEGRAM_DEMO_PLATFORM_TOKEN = '7000000200:AAH-demo-platform-bot-token-0123456789ab';

export async function startDemo(): Promise<ConnectorDemo> {
  const emulator = await startTelegramEmulator({ tokens: [TELEGRAM_DEMO_BOT_TOKEN, TELEGRAM_DEMO_PLATFORM_TOKEN] });
  return {
    config: { TELEGRAM_API_URL: emulator.url, TELEGRAM_BOT_TOKEN: TELEGRAM_DEMO_PLATFORM_TOKEN },
    info: { url: emulator.url, botToken: TELEGRAM_DEMO_BOT_TOKEN },
    close: () => emulator.close(),
  };
}
