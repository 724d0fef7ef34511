import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type GraphClient, type GraphConfig, GraphError, graphClient } from './client';
import { GRAPH_SEED, GRAPH_VERSION, type GraphEmulator, startGraphEmulator } from './emulator';
import { startTestReceiver, type TestReceiver } from './test-receiver';

const REDIRECT = 'https://app.example/api/facebook/callback';
const [DENTAL, COFFEE] = GRAPH_SEED.pages;

let em: GraphEmulator;
let receiver: TestReceiver;

const config = (over: Partial<GraphConfig> = {}): GraphConfig => ({
  graphUrl: em.graphUrl,
  dialogUrl: em.dialogUrl,
  appId: em.appId,
  appSecret: em.appSecret,
  fetch,
  ...over,
});

/** Facebook Login as the browser does it: the dialog redirects back with a code. */
async function login(client: GraphClient, state = 'st-1'): Promise<URL> {
  const res = await fetch(client.loginUrl(REDIRECT, state), { redirect: 'manual' });
  expect(res.status).toBe(302);
  return new URL(res.headers.get('location') ?? '');
}

async function userToken(client: GraphClient): Promise<string> {
  const code = (await login(client)).searchParams.get('code') ?? '';
  const short = await client.exchangeCode(code, REDIRECT);
  return (await client.longLivedToken(short.accessToken)).accessToken;
}

const failure = async (promise: Promise<unknown>): Promise<GraphError> => {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GraphError);
  return err as GraphError;
};

beforeAll(async () => {
  em = await startGraphEmulator();
  receiver = await startTestReceiver('verify-me');
});
afterAll(async () => {
  await em.close();
  await receiver.close();
});
beforeEach(() => em.reset());

describe('Facebook Login and tokens', () => {
  it('signs in: dialog → code → short-lived → long-lived token → profile, pages with page tokens, ad accounts', async () => {
    const client = graphClient(config());
    const url = new URL(client.loginUrl(REDIRECT, 'csrf-42'));
    expect(url.searchParams.get('scope')?.split(',')).toEqual(
      expect.arrayContaining(['leads_retrieval', 'pages_manage_metadata']),
    );
    const back = await login(client, 'csrf-42');
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get('state')).toBe('csrf-42');

    const short = await client.exchangeCode(back.searchParams.get('code') ?? '', REDIRECT);
    expect(short.expiresIn).toBeLessThan(3 * 3600);
    const long = await client.longLivedToken(short.accessToken);
    expect(long.accessToken).not.toBe(short.accessToken);
    expect(long.expiresIn).toBeGreaterThan(50 * 24 * 3600);

    expect(await client.me(long.accessToken)).toEqual({
      id: GRAPH_SEED.user.id,
      name: GRAPH_SEED.user.name,
      email: GRAPH_SEED.user.email,
    });
    const pages = await client.pages(long.accessToken);
    expect(pages.map((p) => p.id)).toEqual([DENTAL.id, COFFEE.id]);
    expect(pages[0]?.accessToken).toBe(em.pageToken(DENTAL.id));
    expect(pages[0]?.category).toBe(DENTAL.category);
    expect(await client.adAccounts(long.accessToken)).toEqual([GRAPH_SEED.adAccount]);
    expect(await client.picture(GRAPH_SEED.user.id, long.accessToken)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/.+\.svg$/);
    // Tokens travel in the Authorization header, never in a logged URL.
    expect(em.requests.some((r) => r.path.includes(long.accessToken))).toBe(false);
  });

  it('a user who cancels the dialog comes back with error=access_denied and no code', async () => {
    em.denyLogin(true);
    const back = await login(graphClient(config()), 'csrf-1');
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('csrf-1');
    expect(back.searchParams.has('code')).toBe(false);
  });

  it('a bad code, a used code, a wrong redirect URI and a wrong app secret are refused without echoing secrets', async () => {
    const client = graphClient(config());
    expect((await failure(client.exchangeCode('not-a-code', REDIRECT))).code).toBe(100);

    const code = (await login(client)).searchParams.get('code') ?? '';
    const wrongUri = await failure(client.exchangeCode(code, 'https://elsewhere.example/cb'));
    expect(wrongUri.code).toBe(100);
    await client.exchangeCode(code, REDIRECT);
    const reused = await failure(client.exchangeCode(code, REDIRECT));
    expect([reused.code, reused.subcode]).toEqual([100, 36009]);
    expect(reused.message).not.toContain(code);

    const wrongSecret = graphClient(config({ appSecret: 'not-the-secret-at-all' }));
    const err = await failure(wrongSecret.appToken());
    expect(err.code).toBe(1);
    expect(err.message).not.toContain('not-the-secret-at-all');
    expect(err.message).not.toContain(em.appSecret);
  });

  it('reads every page of /me/accounts by its cursor', async () => {
    const client = graphClient(config({ pageLimit: 1 }));
    const token = await userToken(client);
    const pages = await client.pages(token);
    expect(pages.map((p) => p.name)).toEqual([DENTAL.name, COFFEE.name]);
    const calls = em.requests.filter((r) => r.path.startsWith(`/${GRAPH_VERSION}/me/accounts`));
    expect(calls).toHaveLength(2);
    expect(calls[1]?.path).toContain('after=');
  });
});

describe('pages, forms and leads', () => {
  it('subscribes and unsubscribes a page with its page token', async () => {
    const client = graphClient(config());
    const pageToken = em.pageToken(DENTAL.id);
    expect(await client.isPageSubscribed(DENTAL.id, pageToken)).toBe(false);
    await client.subscribePage(DENTAL.id, pageToken);
    expect(await client.isPageSubscribed(DENTAL.id, pageToken)).toBe(true);
    expect(em.isPageSubscribed(DENTAL.id)).toBe(true);
    expect(em.isPageSubscribed(COFFEE.id)).toBe(false);
    await client.unsubscribePage(DENTAL.id, pageToken);
    expect(await client.isPageSubscribed(DENTAL.id, pageToken)).toBe(false);
  });

  it('refuses subscribed_apps with a user token or another page’s token', async () => {
    const client = graphClient(config());
    const token = await userToken(client);
    const withUser = await failure(client.subscribePage(DENTAL.id, token));
    expect(withUser.code).toBe(210);
    const withOther = await failure(client.subscribePage(DENTAL.id, em.pageToken(COFFEE.id)));
    expect(withOther.code).toBe(100);
    expect(em.isPageSubscribed(DENTAL.id)).toBe(false);
  });

  it('lists a page’s lead forms with standard, custom and multiple-choice questions', async () => {
    const forms = await graphClient(config()).leadForms(DENTAL.id, em.pageToken(DENTAL.id));
    expect(forms.map((f) => f.id)).toEqual([GRAPH_SEED.forms.consultation, GRAPH_SEED.forms.implants]);
    const consultation = forms[0];
    expect(consultation?.status).toBe('ACTIVE');
    expect(consultation?.questions.map((q) => q.key)).toEqual([
      'full_name',
      'phone_number',
      'email',
      'preferred_time',
      'what_bothers_you',
    ]);
    expect(consultation?.questions.find((q) => q.key === 'preferred_time')?.options).toHaveLength(3);
  });

  it('reads a lead with its fields; without fields the Graph API gives only the id', async () => {
    const client = graphClient(config());
    const id = em.submitLead({
      formId: GRAPH_SEED.forms.consultation,
      fieldData: [
        { name: 'full_name', values: ['Ірина Шевченко'] },
        { name: 'phone_number', values: ['+380671234567'] },
      ],
    });
    const lead = await client.lead(id, em.pageToken(DENTAL.id));
    expect(lead.id).toBe(id);
    expect(lead.form_id).toBe(GRAPH_SEED.forms.consultation);
    expect(lead.created_time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0000$/);
    expect(lead.field_data).toEqual([
      { name: 'full_name', values: ['Ірина Шевченко'] },
      { name: 'phone_number', values: ['+380671234567'] },
    ]);
    expect(lead.campaign_name).toBeTruthy();
    expect(lead.is_organic).toBe(false);

    const bare = await fetch(`${em.graphUrl}/${id}`, {
      headers: { authorization: `Bearer ${em.pageToken(DENTAL.id)}` },
    });
    expect(await bare.json()).toEqual({ id });
    // Another page's token cannot read it.
    expect((await failure(client.lead(id, em.pageToken(COFFEE.id)))).code).toBe(100);
  });

  it('reads a form’s leads created after a moment, across cursor pages', async () => {
    const now = Math.floor(Date.now() / 1000);
    const formId = GRAPH_SEED.forms.consultation;
    em.submitLead({ formId, createdTime: now - 3600 });
    const recent = [
      em.submitLead({ formId, createdTime: now - 60 }),
      em.submitLead({ formId, createdTime: now - 30 }),
      em.submitLead({ formId, createdTime: now - 10 }),
    ];
    em.submitLead({ formId: GRAPH_SEED.forms.implants, createdTime: now - 5 });
    const leads = await graphClient(config({ pageLimit: 2 })).formLeads(formId, em.pageToken(DENTAL.id), now - 600);
    expect(leads.map((l) => l.id).sort()).toEqual([...recent].sort());
    expect(leads.every((l) => l.field_data.length > 0)).toBe(true);
  });

  it('registers the app webhook only when the callback echoes the challenge', async () => {
    const client = graphClient(config());
    await client.subscribeApp(receiver.url, 'verify-me');
    expect(await client.appSubscriptions()).toEqual([
      { object: 'page', callbackUrl: receiver.url, active: true, fields: ['leadgen'] },
    ]);
    await client.unsubscribeApp();
    expect(await client.appSubscriptions()).toEqual([]);

    const wrongToken = await failure(client.subscribeApp(receiver.url, 'wrong'));
    expect(wrongToken.code).toBe(2200);
    receiver.setEcho(false);
    try {
      expect((await failure(client.subscribeApp(receiver.url, 'verify-me'))).code).toBe(2200);
    } finally {
      receiver.setEcho(true);
    }
    expect(em.appSubscription()).toBeNull();
  });

  it('creates one test lead per form at a time', async () => {
    const client = graphClient(config());
    const pageToken = em.pageToken(COFFEE.id);
    const id = await client.testLead(GRAPH_SEED.forms.course, pageToken, [
      { name: 'full_name', values: ['Test Person'] },
    ]);
    expect(em.lead(id)?.fieldData).toEqual([{ name: 'full_name', values: ['Test Person'] }]);
    expect((await failure(client.testLead(GRAPH_SEED.forms.course, pageToken))).code).toBe(100);
    await client.deleteLead(id, pageToken);
    const next = await client.testLead(GRAPH_SEED.forms.course, pageToken);
    expect(em.lead(next)?.fieldData.map((f) => f.name)).toEqual(['full_name', 'phone_number', 'course_level']);
  });
});

describe('errors', () => {
  it('an expired user token is a token error (190/463) that does not leak the token', async () => {
    const client = graphClient(config());
    const token = await userToken(client);
    em.expireUserTokens();
    const err = await failure(client.me(token));
    expect([err.code, err.subcode, err.httpStatus]).toEqual([190, 463, 400]);
    expect(err.isTokenError).toBe(true);
    expect(err.isPermissionError || err.isThrottled || err.isTransient).toBe(false);
    expect(err.message).not.toContain(token);
    // A new sign-in works again.
    expect((await client.me(await userToken(client))).id).toBe(GRAPH_SEED.user.id);
  });

  it('an expired page token is a token error; /me/accounts then gives a fresh one', async () => {
    const client = graphClient(config());
    const user = await userToken(client);
    const old = em.pageToken(DENTAL.id);
    em.expirePageTokens();
    expect((await failure(client.leadForms(DENTAL.id, old))).isTokenError).toBe(true);
    const fresh = (await client.pages(user)).find((p) => p.id === DENTAL.id)?.accessToken ?? '';
    expect(fresh).not.toBe(old);
    expect(await client.leadForms(DENTAL.id, fresh)).toHaveLength(2);
  });

  it('a revoked permission is a permission error (200)', async () => {
    const client = graphClient(config());
    const id = em.submitLead({ formId: GRAPH_SEED.forms.consultation });
    em.revokePermission(['leads_retrieval']);
    const err = await failure(client.lead(id, em.pageToken(DENTAL.id)));
    expect(err.code).toBe(200);
    expect(err.isPermissionError).toBe(true);
    expect(err.isTokenError).toBe(false);
  });

  it.each([4, 17, 32, 80005] as const)('throttling code %i is flagged and carries the usage headers', async (code) => {
    const client = graphClient(config());
    em.setThrottle(code);
    const err = await failure(client.leadForms(DENTAL.id, em.pageToken(DENTAL.id)));
    expect(err.code).toBe(code);
    expect(err.isThrottled).toBe(true);
    expect(err.isTokenError || err.isPermissionError).toBe(false);
    expect(err.usage?.['x-app-usage']).toContain('call_count');
    expect(err.usage?.['x-business-use-case-usage']).toContain(DENTAL.id);
    em.setThrottle(null);
    expect(await client.leadForms(DENTAL.id, em.pageToken(DENTAL.id))).toHaveLength(2);
  });

  it('a 5xx is transient, then the call works again', async () => {
    const client = graphClient(config());
    em.setFault({ status: 503, times: 1 });
    const err = await failure(client.leadForms(DENTAL.id, em.pageToken(DENTAL.id)));
    expect(err.httpStatus).toBe(503);
    expect(err.isTransient).toBe(true);
    expect(err.isTokenError || err.isPermissionError || err.isThrottled).toBe(false);
    expect(await client.leadForms(DENTAL.id, em.pageToken(DENTAL.id))).toHaveLength(2);
  });

  it('no answer (closed port, timeout) is transient and names no secret', async () => {
    const closed = graphClient(config({ graphUrl: `http://127.0.0.1:1/${GRAPH_VERSION}` }));
    const err = await failure(closed.appToken());
    expect([err.httpStatus, err.isTransient]).toEqual([0, true]);
    expect(err.message).not.toContain(em.appSecret);

    em.setLatency(500);
    const slow = await failure(graphClient(config({ timeoutMs: 50 })).me('EAAsome-user-token'));
    expect(slow.isTransient).toBe(true);
    expect(slow.message).toMatch(/timed out/);
    expect(slow.message).not.toContain('EAAsome-user-token');
  });

  it('an unknown API version is refused', async () => {
    const client = graphClient(config({ graphUrl: `${em.url}/v2.0` }));
    expect((await failure(client.leadForms(DENTAL.id, em.pageToken(DENTAL.id)))).code).toBe(2635);
  });

  it('a retired version (v20.0) is refused as Meta refuses it, a never-released one as an unknown path', async () => {
    const retired = await failure(
      graphClient(config({ graphUrl: `${em.url}/v20.0` })).leadForms(DENTAL.id, em.pageToken(DENTAL.id)),
    );
    expect([retired.httpStatus, retired.code]).toEqual([400, 2635]);
    expect(retired.message).toContain(`Please update to the latest version: ${GRAPH_VERSION}`);
    const unknown = await failure(graphClient(config({ graphUrl: `${em.url}/v99.0` })).appToken());
    expect([unknown.httpStatus, unknown.code]).toEqual([400, 2500]);
    // The version the server calls is served.
    expect(em.graphUrl).toBe(`${em.url}/${GRAPH_VERSION}`);
    expect(await graphClient(config()).leadForms(DENTAL.id, em.pageToken(DENTAL.id))).toHaveLength(2);
  });
});
