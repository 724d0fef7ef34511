import { describe, expect, it } from 'vitest';
import { InboundRefusal } from '../kit/connection';
import { tiktokConnections } from './connection';
import { tiktokLeadPayload } from './lead';
import {
  escapeNonAscii,
  parseLeadWebhook,
  parseTiktokJson,
  quoteBigIntegers,
  signBody,
  verifySignature,
} from './webhook';

const SECRET = 'app-secret-for-tests';

// TikTok's documented sample shape: ids as bare 19-digit numbers, answers in `changes`.
const raw = (name = 'Jane Doe') =>
  `{"object":1,"entry":[{"id":7126711421177430274,"page_id":6873052183063953666,"page_name":"Free consultation",` +
  `"campaign_id":1780000000000000001,"campaign_name":"Spring promo","adgroup_id":1780000000000000002,"adgroup_name":"A",` +
  `"ad_id":1780000000000000003,"ad_name":"Video","create_time":1614239152,"changes":[` +
  `{"field":"name","value":"${name}"},{"field":"phone_number","value":"+380671112233"},` +
  `{"field":"email","value":"jane@example.com"},{"field":"Which clinic?","value":"Podil"}],` +
  `"advertiser_id":7012345678901234567,"advertiser_name":"Dental","library_id":0,"lead_source":"INSTANT_FORM"}],"time":1614334356}`;

const receive = (body: string, headers: Record<string, string>) =>
  tiktokConnections.inbound.receiver.receive({ TIKTOK_APP_SECRET: SECRET }, Buffer.from(body, 'utf8'), headers);

describe('the LEAD webhook', () => {
  it('keeps 19-digit ids digit for digit (a JS number would round them)', () => {
    const [lead] = parseLeadWebhook(parseTiktokJson(raw()));
    expect(lead).toMatchObject({
      id: '7126711421177430274',
      pageId: '6873052183063953666',
      advertiserId: '7012345678901234567',
      campaignName: 'Spring promo',
      createTime: 1614239152,
    });
  });

  it('leaves numbers inside strings, short numbers and decimals alone', () => {
    expect(quoteBigIntegers('{"a":"12345678901234567890","b":12,"c":1.12345678901234567,"d":-12345678901234567}')).toBe(
      '{"a":"12345678901234567890","b":12,"c":1.12345678901234567,"d":"-12345678901234567"}',
    );
    expect(quoteBigIntegers('{"q":"say \\"1234567890123456789\\"","n":1234567890123456789}')).toBe(
      '{"q":"say \\"1234567890123456789\\"","n":"1234567890123456789"}',
    );
  });

  it('escapes as TikTok does: lowercase hex, a character past the BMP as its surrogate pair', () => {
    expect(escapeNonAscii('Ї😀a/')).toBe('\\u0407\\ud83d\\ude00a/');
  });

  it('accepts the signature over the \\u-escaped payload, and over the bytes as sent', () => {
    const body = raw('Олена Коваленко');
    const escaped = signBody(body, SECRET);
    expect(escaped).toMatch(/^[0-9a-f]{64}$/);
    expect(verifySignature(Buffer.from(body), escaped, SECRET)).toBe(true);
    expect(verifySignature(Buffer.from(escapeNonAscii(body)), escaped, SECRET)).toBe(true);
    expect(verifySignature(Buffer.from(body), escaped.toUpperCase(), SECRET)).toBe(true);
  });

  it('refuses a missing, malformed or wrong signature, and a changed body, before reading anything', () => {
    const body = raw();
    const good = signBody(body, SECRET);
    const wrong: Record<string, string>[] = [
      {},
      { 'x-open-signature': '' },
      { 'x-open-signature': 'sha256=abc' },
      { 'x-open-signature': signBody(body, 'another-secret') },
      { 'x-open-signature': `${good.slice(0, -1)}${good.endsWith('0') ? '1' : '0'}` },
    ];
    for (const headers of wrong) {
      expect(() => receive(body, headers), JSON.stringify(headers)).toThrow(InboundRefusal);
    }
    expect(() => receive(body.replace('Jane', 'John'), { 'x-open-signature': good })).toThrow(InboundRefusal);
    // Without an app secret nothing is accepted.
    expect(() =>
      tiktokConnections.inbound.receiver.receive({}, Buffer.from(body), { 'x-open-signature': good }),
    ).toThrow(InboundRefusal);
  });

  it('answers INVALID_JSON for a signed body that is not JSON', () => {
    const body = '{"object":1,';
    try {
      receive(body, { 'x-open-signature': signBody(body, SECRET) });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InboundRefusal);
      expect((error as InboundRefusal).code).toBe('INVALID_JSON');
    }
  });

  it('makes one event per lead: its id, its ad account and the lead itself as the payload', () => {
    const body = raw('Олена Коваленко');
    const events = receive(body, { 'x-open-signature': signBody(body, SECRET) });
    expect(events).toEqual([
      {
        externalId: '7126711421177430274',
        assetId: '7012345678901234567',
        data: expect.objectContaining({
          name: 'Олена Коваленко',
          phone_number: '+380671112233',
          email: 'jane@example.com',
          Which_clinic_: 'Podil',
          utm_source: 'tiktok',
          utm_campaign: 'Spring promo',
          tiktok_lead_id: '7126711421177430274',
          tiktok_form_id: '6873052183063953666',
          tiktok_advertiser_id: '7012345678901234567',
          created_time: '2021-02-25T07:45:52.000Z',
        }),
      },
    ]);
  });

  it('gives no leads for another object, junk, entries without a lead id or ad account, and repeats one lead once', () => {
    expect(parseLeadWebhook({ object: 2, entry: [{ id: '1', advertiser_id: '2' }] })).toEqual([]);
    expect(parseLeadWebhook(null)).toEqual([]);
    expect(parseLeadWebhook({ object: 1, entry: 'x' })).toEqual([]);
    expect(parseLeadWebhook({ object: 1, entry: [{ advertiser_id: '2' }, { id: '1' }, 5, null] })).toEqual([]);
    // An id that is not one (a NUL, a space, a path) makes no lead.
    expect(
      parseLeadWebhook({
        object: 1,
        entry: [
          { id: '1\u0000', advertiser_id: '2' },
          { id: '../1', advertiser_id: '2' },
        ],
      }),
    ).toEqual([]);
    const twice = parseLeadWebhook({
      object: 1,
      entry: [
        { id: '1', advertiser_id: '2', changes: [] },
        { id: '1', advertiser_id: '2', changes: [] },
      ],
    });
    expect(twice).toHaveLength(1);
  });

  it('drops control characters (PostgreSQL refuses NUL) but keeps line breaks', () => {
    const [lead] = parseLeadWebhook(
      parseTiktokJson(
        '{"object":1,"entry":[{"id":"1","advertiser_id":"2","page_name":"A\\u0000B",' +
          '"changes":[{"field":"na\\u0000me","value":"Iv\\u0000an\\nFranko\\u0007"}]}]}',
      ),
    );
    expect(lead?.pageName).toBe('AB');
    expect(lead?.changes).toEqual([{ field: 'name', value: 'Ivan\nFranko' }]);
  });
});

describe('a lead as the payload', () => {
  it('keeps field names from outside as data, never as object members', () => {
    const payload = tiktokLeadPayload({
      id: '1',
      advertiserId: '2',
      changes: [
        { field: '__proto__', value: 'x' },
        { field: 'constructor', value: 'y' },
        { field: 'first_name', value: 'Ivan' },
        { field: 'last_name', value: 'Franko' },
        { field: '!!!', value: 'z' },
        { field: 'empty', value: '   ' },
      ],
    });
    expect(Object.getPrototypeOf(payload)).toBe(Object.prototype);
    expect(Object.hasOwn(payload, '__proto__')).toBe(true);
    expect(payload.constructor).toBe('y');
    expect(payload.full_name).toBe('Ivan Franko');
    expect(payload.question_5).toBe('z');
    expect(Object.hasOwn(payload, 'empty')).toBe(false);
  });

  it("puts TikTok's own ids over an answer that shares their name", () => {
    const payload = tiktokLeadPayload({
      id: '99',
      advertiserId: '2',
      changes: [{ field: 'tiktok_lead_id', value: 'forged' }],
    });
    expect(payload.tiktok_lead_id).toBe('99');
    const noForm = tiktokLeadPayload({
      id: '1',
      advertiserId: '2',
      changes: [{ field: 'tiktok_form_id', value: '5' }],
    });
    expect(Object.hasOwn(noForm, 'tiktok_form_id')).toBe(false);
  });
});
