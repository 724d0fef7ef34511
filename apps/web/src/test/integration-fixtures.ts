// Test data shaped like the API's answers (ZIntegration, ZSetting); used by the *.test.tsx files only.
import { computeIntegrationState, type Integration, type Setting } from '@leadrelay/shared';
import { vi } from 'vitest';
import { jsonResponse } from './render';

/**
 * An integration as the API answers it; unless given, `state` is computed from the other fields the
 * way the server computes it (its destinations taken as working).
 */
export function makeIntegration(overrides: Partial<Integration> = {}): Integration {
  const base: Omit<Integration, 'state'> = {
    _id: '11111111-1111-4111-8111-111111111111',
    name: 'Форма на сайті',
    type: 'webhook',
    kind: 'source',
    active: true,
    options: {},
    settings: {},
    destination: [],
    distributionId: null,
    category: { _id: 'c-sources', name: 'Sources' },
    isConnected: false,
    status: 'ok',
    statusReason: null,
    createdAt: '2026-03-01T10:00:00.000Z',
    updatedAt: '2026-03-02T10:00:00.000Z',
    ...overrides,
  };
  const state =
    overrides.state ??
    computeIntegrationState({
      kind: base.kind,
      active: base.active,
      needsConnection: false,
      isConnected: base.isConnected,
      isConfigured: true,
      status: base.status,
      statusReason: base.statusReason,
      destinations: base.destination.map((d) => ({ name: d.name, active: true, state: { code: 'working' } })),
    });
  return { ...base, state };
}

export function makeSetting(slug: string, kind: Setting['kind'], overrides: Partial<Setting> = {}): Setting {
  return {
    _id: `s-${slug}`,
    slug,
    name: slug === 'webhook' ? 'Webhook' : slug === 'http' ? 'HTTP webhook' : slug,
    kind,
    hidden: false,
    available: true,
    category: kind === 'source' ? { _id: 'c-sources', name: 'Sources' } : { _id: 'c-webhooks', name: 'Webhooks' },
    destinations: kind === 'source' ? [{ slug: 'http' }] : [],
    tags: kind === 'source' ? ['forms', 'api'] : ['api'],
    modules: [],
    ...overrides,
  };
}

type Handler = (url: URL, init: RequestInit) => unknown;

/** A fetch stub routing by "METHOD /path" (query ignored); unknown calls answer 404. Returns the mock. */
export function routeFetch(routes: Record<string, Handler | unknown>) {
  const mock = vi.fn(async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://localhost');
    const key = `${init.method ?? 'GET'} ${url.pathname}`;
    if (!(key in routes)) return jsonResponse(404, { statusCode: 404, code: 'NOT_FOUND', message: key });
    const route = routes[key];
    const body = typeof route === 'function' ? (route as Handler)(url, init) : route;
    return body instanceof Response ? body : jsonResponse(200, body);
  });
  vi.stubGlobal('fetch', mock);
  return mock;
}

/** The calls made to one "METHOD /path", with their URL and parsed JSON body. */
export function callsTo(mock: ReturnType<typeof routeFetch>, key: string) {
  return mock.mock.calls
    .map(([input, init = {}]) => ({ url: new URL(input, 'http://localhost'), init }))
    .filter(({ url, init }) => `${init.method ?? 'GET'} ${url.pathname}` === key)
    .map(({ url, init }) => ({ url, body: init.body ? JSON.parse(init.body as string) : undefined }));
}
