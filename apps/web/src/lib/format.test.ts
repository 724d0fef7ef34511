import { describe, expect, it } from 'vitest';
import { greetingName } from './format';

describe('greetingName', () => {
  it('greets by name when the user has one', () => {
    expect(greetingName({ name: ' Олена ', login: 'olena.kovalenko@example.com' })).toBe('Олена');
  });

  it('greets by the short login, never by the whole e-mail address', () => {
    expect(greetingName({ name: '', login: 'olena.kovalenko@example.com' })).toBe('olena.kovalenko');
    expect(greetingName({ name: null, login: 'admin' })).toBe('admin');
  });
});
