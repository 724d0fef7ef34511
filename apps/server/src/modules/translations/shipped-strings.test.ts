import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findWebLocales, loadShippedStrings, unflatten } from './shipped-strings';

describe('the shipped strings', () => {
  it("has every connector's words under `connectors`, keyed by its folder, in each language", () => {
    const root = mkdtempSync(join(tmpdir(), 'shipped-'));
    const put = (path: string, value: unknown) => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), JSON.stringify(value));
    };
    try {
      put('apps/web/src/locales/uk/common.json', { save: 'Зберегти' });
      put('apps/web/src/locales/en/common.json', { save: 'Save' });
      put('packages/connectors/src/demo/words/uk.json', { tabs: { log: 'Журнал' }, parts_few: '{{count}} частини' });
      put('packages/connectors/src/demo/words/en.json', { tabs: { log: 'Log' }, parts_other: '{{count}} parts' });
      put('packages/connectors/src/demo/words/codes/uk.json', { errors: { DEMO_DOWN: 'Демо не відповідає' } });
      put('packages/connectors/src/demo/words/codes/en.json', { errors: { DEMO_DOWN: 'Demo is down' } });
      put('packages/connectors/src/kit/manifest.ts', '');
      const strings = loadShippedStrings(join(root, 'apps/web/src/locales'));
      expect(strings.get('uk')?.get('common')?.get('save')).toBe('Зберегти');
      expect(Object.fromEntries(strings.get('uk')?.get('connectors') ?? [])).toEqual({
        'demo.tabs.log': 'Журнал',
        'demo.parts_few': '{{count}} частини',
        'demo.errors.DEMO_DOWN': 'Демо не відповідає',
      });
      expect(strings.get('en')?.get('connectors')?.get('demo.tabs.log')).toBe('Log');
      expect(strings.get('en')?.get('connectors')?.get('demo.errors.DEMO_DOWN')).toBe('Demo is down');
      // No locale named after the codes' folder.
      expect([...strings.keys()].sort()).toEqual(['en', 'uk']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("reads the repository's own connector words beside the web's locales", () => {
    const connectors = loadShippedStrings(findWebLocales()).get('uk')?.get('connectors');
    expect(connectors?.size).toBeGreaterThan(0);
    expect([...(connectors?.keys() ?? [])].every((key) => /^[a-z0-9]+\./.test(key))).toBe(true);
    // A connector's codes' words too (connectors:<slug>.errors.*, no longer errors:*): the operator sees and overrides them.
    expect(connectors?.get('uspacy.errors.USPACY_PORTAL_INVALID')).toBeTruthy();
  });
});

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
