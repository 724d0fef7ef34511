// The query keys of a lead-form source's account connections (account-queries.ts). They start with
// ACCOUNTS_KEY, which UPDATE_INTEGRATION and a reconnected channel refresh (lib/realtime: a
// connection's health shows on its own screen too); pictures have their own prefix, so a refresh
// does not ask for them again within their time.
export const ACCOUNTS_KEY = 'connector-accounts';

export const accountKeys = {
  all: (slug: string) => [ACCOUNTS_KEY, slug] as const,
  connections: (slug: string) => [ACCOUNTS_KEY, slug, 'connections'] as const,
  asset: (slug: string, cid: string, aid: string) => [ACCOUNTS_KEY, slug, 'asset', cid, aid] as const,
  forms: (slug: string, cid: string, aid: string) => [ACCOUNTS_KEY, slug, 'forms', cid, aid] as const,
  items: (slug: string) => [ACCOUNTS_KEY, slug, 'items'] as const,
  picture: (slug: string, accountId: string) => ['connector-account-picture', slug, accountId] as const,
};
