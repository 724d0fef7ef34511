import { describe, expect, it } from 'vitest';
import { LINKS, supportLink } from './links';

describe('support bot deep link', () => {
  it('carries the login as base64url in the start parameter', () => {
    const url = new URL(supportLink('anna+test@example.com'));
    const start = url.searchParams.get('start') ?? '';
    expect(start).toMatch(/^[A-Za-z0-9_-]+$/);
    const decoded = atob(start.replace(/-/g, '+').replace(/_/g, '/'));
    expect(decoded).toBe('anna+test@example.com');
    expect(`${url.origin}${url.pathname}`).toBe(LINKS.supportBot);
  });
  it('falls back to the bare bot link without a login or for a very long one', () => {
    expect(supportLink(undefined)).toBe(LINKS.supportBot);
    expect(supportLink(`${'a'.repeat(80)}@example.com`)).toBe(LINKS.supportBot);
  });
});
