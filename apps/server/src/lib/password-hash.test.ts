import { afterAll, describe, expect, it } from 'vitest';
import { hashPassword, PASSWORD_COST, setPasswordCostForTests, verifyPassword } from './password-hash';

describe('password hashes', () => {
  afterAll(() => setPasswordCostForTests(1_024)); // as src/test/per-file.ts left it

  it('are made at the real cost, name it, and check the password they were made from', async () => {
    setPasswordCostForTests();
    const hash = await hashPassword('Correct horse 1');
    expect(hash.split('$').slice(0, 4)).toEqual(['scrypt', String(PASSWORD_COST), '8', '1']);
    expect(PASSWORD_COST).toBeGreaterThanOrEqual(16_384);
    expect(await verifyPassword('Correct horse 1', hash)).toBe(true);
    expect(await verifyPassword('Correct horse 2', hash)).toBe(false);
  });

  it('are checked at the cost each one names, whatever the cost new ones get', async () => {
    setPasswordCostForTests(1_024);
    const cheap = await hashPassword('Пароль-1');
    setPasswordCostForTests();
    expect(await verifyPassword('Пароль-1', cheap)).toBe(true);
    expect(await verifyPassword('Пароль-2', cheap)).toBe(false);
    expect(await verifyPassword('Пароль-1', 'bcrypt$whatever')).toBe(false);
  });
});
