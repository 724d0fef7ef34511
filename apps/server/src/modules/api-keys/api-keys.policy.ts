// Where an API key may go (issue 34, docs/api.md "API keys"). The auth plugin lets a key reach only
// routes of access `client` (the account's API: never staff or owner routes) that do not say
// `apiKey: false`; of those, the ones below are for a person at the screen and stay closed to keys
// too. A route added under one of these prefixes is closed to keys from the start.
//
// The rules read the route's pattern (`/api/account/api-keys/:id`), never the request's path, so
// an id or an encoded character cannot slip past them.

interface Rule {
  /** A route whose pattern is this, or starts with it when it ends with `/`. */
  pattern: string;
  /** Patterns under a closed prefix that stay open to keys. */
  except?: readonly string[];
  why: string;
}

export const PEOPLE_ONLY_ROUTES: readonly Rule[] = [
  { pattern: '/api/auth/', except: ['/api/auth/me'], why: 'sign-in, sessions' },
  { pattern: '/api/account/', why: 'password, clearing data, removing the account, the API keys themselves' },
  { pattern: '/api/super/', why: 'staff (leaving an entered session)' },
  { pattern: '/api/payment/', why: 'payments and the saved card' },
  { pattern: '/api/subscriptions/', why: 'payments' },
  { pattern: '/api/oauth/', why: 'OAuth sign-in with a provider, in a browser' },
  { pattern: '/api/integrations/:id/oauth/start', why: 'OAuth sign-in with a provider, in a browser' },
  { pattern: '/api/tiktok/start', why: 'OAuth sign-in with a provider, in a browser' },
  { pattern: '/api/legacy/api/facebook/accessToken', why: 'Facebook sign-in code exchange, in a browser' },
  { pattern: '/facebook/start', why: 'Facebook sign-in, in a browser' },
  { pattern: '/pipedrive/start', why: 'Pipedrive sign-in, in a browser' },
  { pattern: '/pipedrive/state', why: 'Pipedrive sign-in, in a browser' },
];

const matches = (rule: Rule, url: string): boolean =>
  rule.pattern.endsWith('/') ? url.startsWith(rule.pattern) && !rule.except?.includes(url) : url === rule.pattern;

/** Whether an API key may call a `client` route with this pattern. */
export function keyMayUse(route: { url: string }): boolean {
  return !PEOPLE_ONLY_ROUTES.some((rule) => matches(rule, route.url));
}
