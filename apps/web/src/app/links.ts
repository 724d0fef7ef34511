// External addresses the spec leaves open; one place to change them.
export const LINKS = {
  knowledgeBase: 'https://help.leadrelay.app',
  terms: 'https://leadrelay.app/terms',
  privacy: 'https://leadrelay.app/privacy',
  supportBot: 'https://t.me/leadrelay_support_bot',
};

/** base64url of the login, the Telegram deep-link `start` payload (A–Z a–z 0–9 _ -, ≤ 64). */
export function supportLink(login: string | undefined): string {
  if (!login) return LINKS.supportBot;
  const bytes = new TextEncoder().encode(login);
  const b64 = btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
  return b64.length <= 64 ? `${LINKS.supportBot}?start=${b64}` : LINKS.supportBot;
}
