// Google Ads lead forms' codes (kit/codes.ts): a lead whose key is not the integration's (Google
// sends the key pasted beside the address; a wrong or missing one is refused, nothing stored) and a
// body that carries no lead. Words: words/codes/{uk,en}.json.
import { defineCodes } from '../kit/codes';
import en from './words/codes/en.json';
import uk from './words/codes/uk.json';

export const codes = defineCodes({
  errors: {
    GOOGLEADS_KEY_INVALID: 403,
    GOOGLEADS_NO_LEAD: 400,
  },
  reasons: [],
  reconnect: [],
  words: { uk, en },
});

declare module '@leadrelay/shared' {
  interface ConnectorErrorCodes extends Record<keyof typeof codes.errors, number> {}
}
