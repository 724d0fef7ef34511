import { describe, expect, it } from 'vitest';
import enDashboard from '../locales/en-dashboard';
import enRest from '../locales/en-rest';
import enStart from '../locales/en-start';
import ukDashboard from '../locales/uk-dashboard';
import ukRest from '../locales/uk-rest';
import ukStart from '../locales/uk-start';
import { NAMESPACES } from './i18n';

// A namespace in no chunk never loads (its keys would show raw); one in two loads twice.
describe('the strings chunks', () => {
  it.each([
    ['uk', [ukStart, ukDashboard, ukRest]],
    ['en', [enStart, enDashboard, enRest]],
  ])('hold every %s namespace exactly once', (_language, chunks) => {
    const names = chunks.flatMap((chunk) => Object.keys(chunk));
    expect([...names].sort()).toEqual([...NAMESPACES].sort());
  });

  it('split both languages the same way', () => {
    expect(Object.keys(enStart).sort()).toEqual(Object.keys(ukStart).sort());
    expect(Object.keys(enDashboard).sort()).toEqual(Object.keys(ukDashboard).sort());
  });
});
