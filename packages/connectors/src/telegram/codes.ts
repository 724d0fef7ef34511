// Telegram's codes (kit/codes.ts): a bot token Telegram refused, no platform bot configured, Telegram
// out of reach, an integration whose collection is not the item's (the manager bot's answers, issue
// 19); why a card did not reach a manager. Its reasons have a screen sentence only: a mail about a
// broken Telegram integration says the general one. Words: words/codes/{uk,en}.json.
import { defineCodes } from '../kit/codes';
import en from './words/codes/en.json';
import uk from './words/codes/uk.json';

export const codes = defineCodes({
  errors: {
    TELEGRAM_TOKEN_INVALID: 400,
    TELEGRAM_PLATFORM_BOT_UNAVAILABLE: 400,
    TELEGRAM_UNAVAILABLE: 424,
    TELEGRAM_COLLECTION_MISMATCH: 400,
  },
  reasons: [
    'TELEGRAM_NO_ASSIGNEE',
    'TELEGRAM_NOT_LINKED',
    'TELEGRAM_BLOCKED',
    'TELEGRAM_CHAT_NOT_FOUND',
    'TELEGRAM_RATE_LIMITED',
    'TELEGRAM_TOKEN_INVALID',
    'TELEGRAM_PLATFORM_BOT_UNAVAILABLE',
  ],
  reconnect: [],
  words: { uk, en },
});

declare module '@leadrelay/shared' {
  interface ConnectorErrorCodes extends Record<keyof typeof codes.errors, number> {}
}
