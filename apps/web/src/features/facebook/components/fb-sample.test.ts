import { describe, expect, it } from 'vitest';
import { sampleFieldData, samplePayload } from './fb-sample';

describe('the sample lead of a Meta form', () => {
  it('answers a question keyed like a built-in member (constructor, toString, __proto__) with text', () => {
    const keys = ['constructor', 'toString', '__proto__', 'valueOf', 'hasOwnProperty'];
    const form = { id: '301', questions: keys.map((key) => ({ key, label: key, type: 'CUSTOM' })) };
    expect(sampleFieldData(form)).toEqual(keys.map((name) => ({ name, values: ['Так'] })));
    const payload = samplePayload(form);
    for (const key of keys) expect(Object.hasOwn(payload, key) && payload[key], key).toBe('Так');
  });
});
