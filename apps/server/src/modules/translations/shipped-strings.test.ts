import { describe, expect, it } from 'vitest';
import { unflatten } from './shipped-strings';

describe('unflatten (an i18next bundle from flat keys)', () => {
  it('treats key parts named like built-in members as data: nothing is written on Object.prototype', () => {
    try {
      const bundle = unflatten([
        ['a.__proto__.polluted', 'x'],
        ['b.constructor.name', 'y'],
        ['toString', 'z'],
      ]);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(JSON.parse(JSON.stringify(bundle))).toEqual(
        JSON.parse('{"a":{"__proto__":{"polluted":"x"}},"b":{"constructor":{"name":"y"}},"toString":"z"}'),
      );
    } finally {
      delete (Object.prototype as Record<string, unknown>).polluted;
    }
  });
});
