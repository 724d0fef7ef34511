import { describe, expect, it } from 'vitest';
import { webhookToken } from './token';

describe('webhook token', () => {
  it('takes the token from a webhook address or as it is', () => {
    expect(webhookToken('https://app.example/api/hooks/in/abcDEF123_-x')).toBe('abcDEF123_-x');
    expect(webhookToken(' http://127.0.0.1:3000/api/hooks/in/abcdefgh12/?x=1 ')).toBe('abcdefgh12');
    expect(webhookToken('abcdefgh12')).toBe('abcdefgh12');
  });

  it('refuses anything else', () => {
    expect(webhookToken('')).toBeNull();
    expect(webhookToken('https://evil.example/steal')).toBeNull();
    expect(webhookToken('short')).toBeNull();
    expect(webhookToken('has spaces in it')).toBeNull();
  });
});
