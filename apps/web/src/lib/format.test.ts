import { afterEach, describe, expect, it } from 'vitest';
import { displayTimeZone, formatDate, formatDateTime, greetingName, setDisplayZone } from './format';
import { formatDateTime as formatHookDateTime, formatMoment } from './hooks/format';

describe('greetingName', () => {
  it('greets by name when the user has one', () => {
    expect(greetingName({ name: ' Олена ', login: 'olena.kovalenko@example.com' })).toBe('Олена');
  });

  it('greets by the short login, never by the whole e-mail address', () => {
    expect(greetingName({ name: '', login: 'olena.kovalenko@example.com' })).toBe('olena.kovalenko');
    expect(greetingName({ name: null, login: 'admin' })).toBe('admin');
  });
});

describe('moments in the account’s time zone, whatever the browser’s', () => {
  afterEach(() => setDisplayZone(undefined));

  it('a moment and its day are the account’s once its profile is read, in the formats of every screen', () => {
    const iso = '2026-11-28T22:30:00Z';
    setDisplayZone('Asia/Tokyo');
    // 07:30 on the 29th in Tokyo (UTC+9); 00:30 on the 29th in Kyiv (UTC+2); 22:30 on the 28th in UTC.
    expect(formatDateTime(iso)).toMatch(/29.*07:30/);
    expect(formatDate(iso)).toMatch(/29/);
    expect(formatHookDateTime(iso)).toMatch(/29\.11\.26.*07:30:00/);
    setDisplayZone('Europe/Kyiv');
    expect(formatDateTime(iso)).toMatch(/29.*00:30/);
    expect(formatMoment(iso, new Date('2026-11-29T10:00:00Z'))).toMatch(/^00:30$/);
    setDisplayZone('UTC');
    expect(formatDate(iso)).toMatch(/28/);
    expect(formatMoment(iso, new Date('2026-11-29T10:00:00Z'))).toMatch(/28\.11\.26/);
  });

  it('a zone this browser does not know leaves the browser’s own', () => {
    setDisplayZone('Mars/Olympus');
    expect(displayTimeZone()).toBeUndefined();
    expect(() => formatDateTime('2026-11-28T22:30:00Z')).not.toThrow();
  });
});
