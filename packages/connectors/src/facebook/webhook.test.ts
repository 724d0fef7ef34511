import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { metaJson, parseLeadgenWebhook, signBody, verifySignature } from './webhook';

const SECRET = 'app-secret-for-tests';
const sign = (raw: string | Buffer) => `sha256=${createHmac('sha256', SECRET).update(raw).digest('hex')}`;

// As Meta sends it: non-ASCII escaped as \uXXXX and "/" as "\/".
const RAW =
  '{"object":"page","entry":[{"id":"201","time":1717236930,"changes":[{"field":"leadgen","value":{"leadgen_id":"901","page_id":"201","form_id":"301","ad_id":"401","created_time":1717236929,"note":"\\u041f\\u0440\\u0438\\u0432\\u0456\\u0442 https:\\/\\/x"}}]}]}';

describe('verifySignature', () => {
  it('accepts the signature of the exact bytes, as a string or a Buffer, in either hex case', () => {
    expect(verifySignature(RAW, sign(RAW), SECRET)).toBe(true);
    expect(verifySignature(Buffer.from(RAW), sign(RAW), SECRET)).toBe(true);
    expect(
      verifySignature(
        RAW,
        sign(RAW)
          .replace(/[a-f]/g, (c) => c.toUpperCase())
          .replace('SHA256', 'sha256'),
        SECRET,
      ),
    ).toBe(true);
    expect(signBody(RAW, SECRET)).toBe(sign(RAW));
  });

  it('refuses a wrong secret, a changed body, a missing or malformed header', () => {
    expect(verifySignature(RAW, sign(RAW), 'another-secret')).toBe(false);
    expect(verifySignature(RAW.replace('901', '902'), sign(RAW), SECRET)).toBe(false);
    expect(verifySignature(RAW, undefined, SECRET)).toBe(false);
    expect(verifySignature(RAW, '', SECRET)).toBe(false);
    expect(verifySignature(RAW, sign(RAW).replace('sha256=', 'sha1='), SECRET)).toBe(false);
    expect(verifySignature(RAW, sign(RAW).slice(0, -2), SECRET)).toBe(false);
    expect(verifySignature(RAW, `${sign(RAW)}00`, SECRET)).toBe(false);
    expect(verifySignature(RAW, 'sha256=zz', SECRET)).toBe(false);
    expect(verifySignature(RAW, sign(RAW), '')).toBe(false);
  });

  it('refuses the same body parsed and serialised again (Meta escapes non-ASCII and "/")', () => {
    const reserialised = JSON.stringify(JSON.parse(RAW));
    expect(reserialised).not.toBe(RAW);
    expect(verifySignature(reserialised, sign(RAW), SECRET)).toBe(false);
  });

  it('metaJson writes what Meta writes', () => {
    expect(metaJson(JSON.parse(RAW))).toBe(RAW);
  });
});

describe('parseLeadgenWebhook', () => {
  it('reads every leadgen change of every entry of a batched body', () => {
    const body = {
      object: 'page',
      entry: [
        {
          id: '201',
          time: 1,
          changes: [
            {
              field: 'leadgen',
              value: { leadgen_id: '901', page_id: '201', form_id: '301', created_time: 1717236929 },
            },
            { field: 'feed', value: { post_id: 'x' } },
            { field: 'leadgen', value: { leadgen_id: 902, form_id: 302, adgroup_id: '402' } },
          ],
        },
        { id: '202', changes: [{ field: 'leadgen', value: { leadgen_id: '903', page_id: '202', ad_id: '403' } }] },
      ],
    };
    expect(parseLeadgenWebhook(body)).toEqual([
      { leadgenId: '901', pageId: '201', formId: '301', createdTime: 1717236929 },
      { leadgenId: '902', pageId: '201', formId: '302', adId: '402' },
      { leadgenId: '903', pageId: '202', adId: '403' },
    ]);
  });

  it('ignores other objects, other fields and junk without throwing', () => {
    const junk: unknown[] = [
      null,
      undefined,
      'text',
      42,
      [],
      {},
      { object: 'user', entry: [{ changes: [{ field: 'leadgen', value: { leadgen_id: '1', page_id: '2' } }] }] },
      { object: 'page', entry: 'nope' },
      {
        object: 'page',
        entry: [
          null,
          1,
          { changes: null },
          { changes: [null, { field: 'leadgen' }, { field: 'leadgen', value: 'x' }] },
        ],
      },
      { object: 'page', entry: [{ changes: [{ field: 'leadgen', value: { leadgen_id: '', page_id: '2' } }] }] },
      { object: 'page', entry: [{ changes: [{ field: 'leadgen', value: { leadgen_id: { $ne: 1 }, page_id: '2' } }] }] },
      { object: 'page', entry: [{ changes: [{ field: 'leadgen', value: { leadgen_id: '1' } }] }] },
    ];
    for (const body of junk) expect(parseLeadgenWebhook(body)).toEqual([]);
  });
});
