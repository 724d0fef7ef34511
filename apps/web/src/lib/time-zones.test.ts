import { describe, expect, it } from 'vitest';
import { zoneMatches, zoneOptions } from './time-zones';

describe('the time zone pickers', () => {
  const sao = zoneOptions('Europe/Kyiv').find((o) => o.value === 'America/Sao_Paulo');

  it('list Kyiv first and spell a zone with spaces', () => {
    expect(zoneOptions('Europe/Kyiv')[0]).toEqual({ value: 'Europe/Kyiv', label: 'Europe/Kyiv' });
    expect(sao).toEqual({ value: 'America/Sao_Paulo', label: 'America/Sao Paulo' });
  });

  it('find a zone by the name as the list shows it, as it is stored, or in part, in any case', () => {
    for (const typed of ['America/Sao Paulo', 'America/Sao_Paulo', 'sao paulo', 'SAO_PAULO', ' Paulo ']) {
      expect(zoneMatches(typed, sao), typed).toBe(true);
    }
    expect(zoneMatches('Kyiv', sao)).toBe(false);
    expect(zoneMatches('Kyiv', undefined)).toBe(false);
  });
});
