import { describe, expect, it } from 'vitest';
import { ERROR_STATUS, statusOf } from './errors';

describe('error keys', () => {
  it('map to their HTTP status', () => {
    expect(statusOf('PASSWORDS_NOT_EQUAL')).toBe(400);
    expect(statusOf('MINIMUM_8_ONE_UPPERCASE_LETTER_ONE_LOWERCASE_ONE_NUMBER')).toBe(400);
    expect(statusOf('MIN_LENGTH_3')).toBe(400);
    expect(statusOf('MAX_LENGTH_128')).toBe(400);
    expect(statusOf('INVALID_CREDENTIALS')).toBe(401);
    expect(statusOf('ACCOUNT_NOT_ACTIVE')).toBe(403);
    expect(statusOf('SESSION_NOT_FOUND')).toBe(404);
    expect(statusOf('TOO_MANY_REQUESTS')).toBe(429);
  });
  it('treats an unknown key as a server error', () => {
    expect(statusOf('SOMETHING_ELSE')).toBe(500);
    // A message named like a built-in member is no key either (a zod message may be any text).
    for (const name of ['constructor', 'toString', 'valueOf', '__proto__', 'hasOwnProperty']) {
      expect(statusOf(name), name).toBe(500);
    }
  });
  it('keeps every client error in the 4xx range', () => {
    for (const [code, status] of Object.entries(ERROR_STATUS)) {
      if (code !== 'INTERNAL_ERROR') expect(status, code).toBeLessThan(500);
    }
  });
});
