import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { buildRoutes, routePatterns } from './routes';

// Spec section 2, every route (no prefix = Ukrainian).
const SPEC = [
  '/',
  '/signup',
  '/signin',
  '/confirm',
  '/recovery',
  '/password/:token?',
  '/enter',
  '/news',
  '/news/:id',
  '/test',
  '/admin',
  '/admin/account',
  '/admin/billing',
  '/admin/clients',
  '/admin/collections',
  '/admin/create',
  '/admin/integrations',
  '/admin/language',
  '/admin/list',
  '/admin/logout',
  '/admin/parsers',
  '/admin/parsers/create',
  '/admin/parsers/:id',
  '/admin/plan',
  '/admin/referral',
  // Issue 19: the speed-to-lead report and the guardian.
  '/admin/speed',
  '/admin/guardian',
  '/admin/user',
  '/admin/widget',
  // Every connector's pages (issue 29), Facebook's /admin/integrations/facebook and /fb among them.
  '/admin/integrations/:type',
  '/admin/integrations/:type/:id',
  '/admin/super',
  '/admin/super/clients',
  '/admin/super/language',
  '/admin/super/integrations',
  '/admin/super/integrations/categories',
  '/admin/super/integrations/modules',
  '/admin/super/tariffs',
  // Beyond spec section 2: issue 13 asks for the audit log as a tab of the super-admin area.
  '/admin/super/audit',
  '/widgets/pipedrive-sendpulse',
];

const routes = buildRoutes();
const concrete = (p: string) =>
  p.replace(':token?', 'abc123').replace(':type', 'horoshop').replace(':id', '42').replace(':id', '43');

/** The full pattern of the deepest match, without the language root. */
function matchedPattern(url: string): string | null {
  const matches = matchRoutes(routes, url);
  if (!matches) return null;
  const parts = matches.map((m) => m.route.path).filter((p): p is string => Boolean(p) && p !== '/' && p !== '/en');
  return `/${parts.join('/')}`;
}

describe('route table', () => {
  it('declares exactly the spec routes', () => {
    expect(routePatterns().sort()).toEqual([...SPEC].sort());
  });

  it.each(SPEC)('%s resolves to its own route in Ukrainian and English', (pattern) => {
    for (const prefix of ['', '/en']) {
      const url = prefix + (concrete(pattern) === '/' ? '' : concrete(pattern)) || '/';
      const found = matchedPattern(url);
      expect(found, url).not.toBe('/*');
      const expected = pattern === '/' ? '/' : pattern;
      // The password route also matches without its optional token.
      expect(found, url).toBe(expected);
      expect(matchRoutes(routes, url)?.[0]?.route.path, url).toBe(prefix || '/');
    }
  });

  // Spec section 2's pages of the connectors drawn from their manifests, Pipedrive's OAuth return included.
  const CONNECTOR_PAGES = [
    ...['alfasms', 'amocrm', 'ga', 'horoshop', 'keycrm', 'pipedrive', 'telegram', 'uspacy'].flatMap((s) => [
      [`/admin/integrations/${s}`, '/admin/integrations/:type'],
      [`/admin/integrations/${s}/42`, '/admin/integrations/:type/:id'],
    ]),
    ['/admin/integrations/pipedrive/connect', '/admin/integrations/:type/:id'],
  ];
  it.each(CONNECTOR_PAGES)('%s is drawn by %s in Ukrainian and English', (url, pattern) => {
    for (const prefix of ['', '/en']) expect(matchedPattern(prefix + url), prefix + url).toBe(pattern);
  });

  it('sends anything else to the 404 route in the right language', () => {
    expect(matchedPattern('/nope/here')).toBe('/*');
    expect(matchedPattern('/en/nope')).toBe('/*');
    expect(matchRoutes(routes, '/en/nope')?.[0]?.route.path).toBe('/en');
  });

  it('loads every page lazily', () => {
    const walk = (rs: typeof routes): boolean =>
      rs.every((r) => (r.children ? walk(r.children) : typeof r.lazy === 'function'));
    expect(walk(routes)).toBe(true);
  });
});
