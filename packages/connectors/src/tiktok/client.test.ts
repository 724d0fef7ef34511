import { describe, expect, it } from 'vitest';
import { TiktokError, tiktokClient } from './client';

// The client against scripted answers: TikTok's envelope read by its code (failures come in HTTP
// 200), ids kept digit for digit, every page of a list, and no secret in what a failure says.

const SECRET = 'the-app-secret-value';
const TOKEN = 'the-advertiser-token';

function scripted(answers: (Response | Error)[]) {
  const calls: { url: URL; init: RequestInit }[] = [];
  const fetchFn = (async (input: URL | string, init?: RequestInit) => {
    calls.push({ url: new URL(String(input)), init: init ?? {} });
    const next = answers.shift();
    if (!next) throw new Error('no more answers');
    if (next instanceof Error) throw next;
    return next;
  }) as typeof fetch;
  const client = tiktokClient({
    apiUrl: 'https://api.test/open_api/v1.3',
    authUrl: 'https://api.test/portal/auth',
    appId: 'app-1',
    appSecret: SECRET,
    fetch: fetchFn,
  });
  return { client, calls };
}

const json = (body: string, status = 200) =>
  new Response(body, { status, headers: { 'content-type': 'application/json' } });

describe('the TikTok client', () => {
  it('sends the token as Access-Token and reads ids past 2^53 as text', async () => {
    const { client, calls } = scripted([
      json('{"code":0,"message":"OK","data":{"list":[{"advertiser_id":7012345678901234567,"advertiser_name":"A"}]}}'),
    ]);
    expect(await client.advertisers(TOKEN)).toEqual([{ id: '7012345678901234567', name: 'A' }]);
    const [first] = calls;
    expect(new Headers(first?.init.headers).get('access-token')).toBe(TOKEN);
    expect(first?.url.pathname).toBe('/open_api/v1.3/oauth2/advertiser/get/');
    expect(first?.url.searchParams.get('app_id')).toBe('app-1');
  });

  it('reads a failure from the code inside HTTP 200, with TikTok’s message and no secret', async () => {
    const { client } = scripted([
      json(`{"code":40105,"message":"Access token ${TOKEN} is invalid (secret ${SECRET})","request_id":"r1"}`),
    ]);
    const error = (await client.user(TOKEN).catch((e: unknown) => e)) as TiktokError;
    expect(error).toBeInstanceOf(TiktokError);
    expect(error.code).toBe(40105);
    expect(error.isTokenError).toBe(true);
    expect(error.isTransient).toBe(false);
    expect(error.message).not.toContain(TOKEN);
    expect(error.message).not.toContain(SECRET);
  });

  it('tells a throttle, a 5xx, an answer that is not JSON and no answer apart', async () => {
    const { client } = scripted([
      json('{"code":40100,"message":"Too many requests"}'),
      json('{"code":50000,"message":"System error"}', 500),
      new Response('<html>bad gateway</html>', { status: 502 }),
      new Error(`connect ECONNREFUSED with ${SECRET}`),
    ]);
    const errors = [];
    for (let i = 0; i < 4; i++) errors.push((await client.user(TOKEN).catch((e: unknown) => e)) as TiktokError);
    expect(errors.map((e) => [e.isTransient, e.isTokenError])).toEqual([
      [true, false],
      [true, false],
      [true, false],
      [true, false],
    ]);
    expect(errors[3]?.message).not.toContain(SECRET);
  });

  it('reads every page of the forms, and their fields a few at a time', async () => {
    const page = (n: number, total: number, ids: string[]) =>
      json(
        JSON.stringify({
          code: 0,
          data: {
            list: ids.map((id) => ({ page_id: id, title: `Form ${id}`, status: 'PUBLISHED' })),
            page_info: { page: n, total_page: total },
          },
        }),
      );
    const { client, calls } = scripted([
      page(1, 2, ['1', '2']),
      page(2, 2, ['3']),
      json('{"code":0,"data":{"fields":["name","email"]}}'),
      json('{"code":40002,"message":"page_id not found"}'),
      json('{"code":0,"data":{"fields":["phone_number"]}}'),
    ]);
    const forms = await client.forms('adv', TOKEN, true);
    expect(forms.map((f) => [f.id, f.fields?.length ?? null])).toEqual([
      ['1', 2],
      ['2', null],
      ['3', 1],
    ]);
    expect(calls[0]?.url.searchParams.get('business_type')).toBe('LEAD_GEN');
    expect(calls[1]?.url.searchParams.get('page')).toBe('2');
  });

  it('puts the app’s id, secret and our callback in a LEAD subscription for one ad account', async () => {
    const { client, calls } = scripted([json('{"code":0,"data":{"subscription_id":"sub-1"}}')]);
    expect(await client.subscribe('adv-1', TOKEN, 'https://app.example/api/tiktok/webhook')).toBe('sub-1');
    expect(JSON.parse(String(calls[0]?.init.body))).toEqual({
      app_id: 'app-1',
      secret: SECRET,
      subscribe_entity: 'LEAD',
      callback_url: 'https://app.example/api/tiktok/webhook',
      subscription_detail: { access_token: TOKEN, advertiser_id: 'adv-1', lead_source: 'INSTANT_FORM' },
    });
  });
});
