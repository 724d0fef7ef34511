/** The token of a LeadRelay webhook address (…/api/hooks/in/<token>), or a bare token; null otherwise. */
export function webhookToken(input: string): string | null {
  const text = input.trim();
  if (!text) return null;
  const fromUrl = /\/api\/hooks\/in\/([A-Za-z0-9_-]{8,200})\/?(?:[?#].*)?$/.exec(text);
  if (fromUrl?.[1]) return fromUrl[1];
  return /^[A-Za-z0-9_-]{8,200}$/.test(text) ? text : null;
}
