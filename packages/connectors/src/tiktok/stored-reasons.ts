// TikTok's reasons as the server stores them in TikTok's own words (connection.ts tiktokReason:
// "<message> (TikTok code 40105)"): a refused token or permission is TIKTOK_TOKEN, the message its
// detail. Read by shared parseReason wherever a stored reason is read (kit/codes.ts `stored`).
import type { StoredReasonForm } from '@leadrelay/shared';

export const storedReasons: readonly StoredReasonForm[] = [
  { pattern: /\(TikTok code (40001|40102|40104|40105)\)$/, code: 'TIKTOK_TOKEN' },
];
