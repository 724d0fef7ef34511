// Where an API key may go (issue 34, docs/api.md "API keys"). The auth plugin lets a key reach only
// routes of access `client` (the account's API: never staff or owner routes) that do not say
// `apiKey: false`; of those, the ones below are for a person at the screen and stay closed to keys
// too. A route added under one of these prefixes, or to a provider's sign-in, is closed to keys
// from the start.
//
// The rules read the route's pattern (`/api/account/api-keys/:id`), never the request's path, so
// an id or an encoded character cannot slip past them. They name no connector: a provider's
// sign-in in a browser is known by its shape (…/start, …/state, …/accessToken, an /oauth/ segment).

interface Rule {
  test: (url: string) => boolean;
  why: string;
}

const under =
  (prefix: string, except: readonly string[] = []) =>
  (url: string) =>
    url.startsWith(prefix) && !except.includes(url);

export const PEOPLE_ONLY_ROUTES: readonly Rule[] = [
  { test: under('/api/auth/', ['/api/auth/me']), why: 'sign-in and sessions (all of /api/auth/ but /api/auth/me)' },
  {
    test: under('/api/account/'),
    why: 'password, clearing data, removing the account, the API keys themselves (all under /api/account/)',
  },
  { test: under('/api/super/'), why: 'staff (leaving an entered session)' },
  { test: under('/api/payment/'), why: 'payments and the saved card' },
  { test: under('/api/subscriptions/'), why: 'payments' },
  {
    test: (url) => url.includes('/oauth/') || /\/(start|state|accessToken)$/.test(url),
    why: "a provider's sign-in in a browser (OAuth, screen codes)",
  },
];

/** Whether an API key may call a `client` route with this pattern. */
export function keyMayUse(route: { url: string }): boolean {
  return !PEOPLE_ONLY_ROUTES.some((rule) => rule.test(route.url));
}
