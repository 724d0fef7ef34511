import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeData, encodeData, liqpaySignature, verifySignature } from './signature';

// LiqPay's Python SDK (github liqpay/sdk-python, liqpay/test_liqpay3.py, test_cnb_form_generation):
// these checkout params, json.dumps(sort_keys=True), base64, signed with "your_private_key".
const SDK_PRIVATE_KEY = 'your_private_key';
const SDK_DATA =
  'eyJhY3Rpb24iOiAicGF5IiwgImFtb3VudCI6ICIxMCIsICJjdXJyZW5jeSI6ICJVU0QiLCAiZGVzY3JpcHRpb24iOiAiVGVzdCBPcmRlciIsICJsYW5n' +
  'dWFnZSI6ICJlbiIsICJvcmRlcl9pZCI6ICIxMjM0NTYiLCAicHVibGljX2tleSI6ICJ5b3VyX3B1YmxpY19rZXkiLCAidmVyc2lvbiI6IDN9';
const SDK_SIGNATURE = 'x4uWEaw2f35T0IoiVfECyKsbIeY=';

describe('liqpaySignature', () => {
  it("matches LiqPay's own SDK test vector", () => {
    expect(liqpaySignature(SDK_PRIVATE_KEY, SDK_DATA)).toBe(SDK_SIGNATURE);
    expect(decodeData(SDK_DATA)).toEqual({
      action: 'pay',
      amount: '10',
      currency: 'USD',
      description: 'Test Order',
      language: 'en',
      order_id: '123456',
      public_key: 'your_public_key',
      version: 3,
    });
  });

  it('depends on the key and on every character of the data', () => {
    expect(liqpaySignature('another_key', SDK_DATA)).not.toBe(SDK_SIGNATURE);
    expect(liqpaySignature(SDK_PRIVATE_KEY, `${SDK_DATA.slice(0, -1)}0`)).not.toBe(SDK_SIGNATURE);
  });
});

describe('verifySignature', () => {
  it('accepts the genuine signature and refuses anything else', () => {
    expect(verifySignature(SDK_PRIVATE_KEY, SDK_DATA, SDK_SIGNATURE)).toBe(true);
    expect(verifySignature('another_key', SDK_DATA, SDK_SIGNATURE)).toBe(false);
    expect(verifySignature(SDK_PRIVATE_KEY, SDK_DATA, 'x4uWEaw2f35T0IoiVfECyKsbIeZ=')).toBe(false);
    expect(verifySignature(SDK_PRIVATE_KEY, SDK_DATA, '')).toBe(false);
    expect(verifySignature(SDK_PRIVATE_KEY, SDK_DATA, `${SDK_SIGNATURE}=`)).toBe(false);
    expect(verifySignature(SDK_PRIVATE_KEY, `${SDK_DATA}=`, SDK_SIGNATURE)).toBe(false);
  });

  it('accepts the SHA3-256 form of the same construction, and only with the key', () => {
    const sha3 = (key: string) =>
      createHash('sha3-256')
        .update(key + SDK_DATA + key)
        .digest('base64');
    expect(verifySignature(SDK_PRIVATE_KEY, SDK_DATA, sha3(SDK_PRIVATE_KEY))).toBe(true);
    expect(verifySignature(SDK_PRIVATE_KEY, SDK_DATA, sha3('another_key'))).toBe(false);
  });
});

describe('encodeData / decodeData', () => {
  it('round-trips an object, Cyrillic included', () => {
    const params = { version: 3, description: 'Тариф «Бізнес», місяць', amount: 12.5, recurringbytoken: '1' };
    const data = encodeData(params);
    expect(data).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(decodeData(data)).toEqual(params);
  });

  it('reads base64 wrapped at 76 columns, as LiqPay’s shell examples write it', () => {
    const wrapped = SDK_DATA.replace(/(.{76})/g, '$1\n');
    expect(decodeData(wrapped)).toEqual(decodeData(SDK_DATA));
  });

  it('answers null, never throws, for anything that is not base64 of a JSON object', () => {
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    for (const bad of [
      undefined,
      null,
      42,
      {},
      '',
      '!!!!',
      'abc',
      'not base64 at all',
      b64('not json'),
      b64('[1,2,3]'),
      b64('null'),
      b64('"text"'),
      b64('{"unclosed":'),
    ]) {
      expect(decodeData(bad)).toBeNull();
    }
  });
});
