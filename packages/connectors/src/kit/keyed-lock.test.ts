import { describe, expect, it } from 'vitest';
import { createKeyedLock, lockAll, personLockKeys } from './keyed-lock';
import { memoryAuthStore } from './memory-auth';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('createKeyedLock', () => {
  it('runs calls with the same key one at a time, in order, and other keys alongside', async () => {
    const lock = createKeyedLock();
    const events: string[] = [];
    const job = (name: string, ms: number) => async () => {
      events.push(`${name}+`);
      await tick(ms);
      events.push(`${name}-`);
      return name;
    };
    const results = await Promise.all([lock('a', job('a1', 20)), lock('a', job('a2', 1)), lock('b', job('b1', 1))]);
    expect(results).toEqual(['a1', 'a2', 'b1']);
    expect(events.indexOf('a2+')).toBeGreaterThan(events.indexOf('a1-'));
    expect(events.indexOf('b1-')).toBeLessThan(events.indexOf('a1-'));
  });

  it('a failing call releases the key for the next one', async () => {
    const lock = createKeyedLock();
    await expect(lock('a', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(lock('a', async () => 'next')).resolves.toBe('next');
  });
});

describe('lockAll and personLockKeys', () => {
  it('a holder of [phone, e-mail] and a holder of [e-mail] never run together', async () => {
    const lock = createKeyedLock();
    const events: string[] = [];
    const hold = (name: string, keys: string[]) =>
      lockAll(lock, keys, async () => {
        events.push(`${name}+`);
        await tick(15);
        events.push(`${name}-`);
      });
    await Promise.all([hold('a', ['phone:1', 'email:x']), hold('b', ['email:x']), hold('c', ['phone:2'])]);
    expect(events.indexOf('b+')).toBeGreaterThan(events.indexOf('a-'));
    expect(events.indexOf('c-')).toBeLessThan(events.indexOf('a-'));
  });

  it('names a person by the digits of the phone and the lower-cased e-mail, else the fallback', () => {
    expect(personLockKeys({ phone: '+380 50 123', email: ' Olena@Example.com ' }, 'f')).toEqual([
      'phone:38050123',
      'email:olena@example.com',
    ]);
    expect(personLockKeys({}, 'lead:1')).toEqual(['lead:1']);
  });
});

describe('memoryAuthStore', () => {
  it('two calls with the same stale credentials refresh once and both get the new ones', async () => {
    const store = memoryAuthStore({ token: 'old' });
    const refresh = async () => {
      await tick(10);
      return { token: 'new' };
    };
    const [a, b] = await Promise.all([
      store.rotateAuth({ token: 'old' }, refresh),
      store.rotateAuth({ token: 'old' }, refresh),
    ]);
    expect(a).toEqual({ token: 'new' });
    expect(b).toEqual({ token: 'new' });
    expect(store.refreshes()).toBe(1);
  });
});
