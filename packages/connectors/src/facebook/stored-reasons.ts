// Facebook's reasons as the server stored them in Graph's own words (graphReason: "<message> (code
// 190/463)"): a refusal of the token or a permission is FACEBOOK_TOKEN, the message its detail.
// Read by shared parseReason wherever a stored reason is read (kit/codes.ts `stored`).
import type { StoredReasonForm } from '@leadrelay/shared';

export const storedReasons: readonly StoredReasonForm[] = [
  { pattern: /\(code (190|102|10|200)(\/\d+)?\)$/, code: 'FACEBOOK_TOKEN' },
];
