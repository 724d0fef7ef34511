import { describe, expect, it } from 'vitest';
import { daysLeft, hasRole, headerWarning, isDemo, isPrivileged, isUserActive } from './user-status';

const now = new Date('2026-11-22T15:00:00Z');

describe('days left and activity', () => {
  it('counts whole days until expDate', () => {
    expect(daysLeft('2026-11-29', now)).toBe(7);
    expect(daysLeft('2026-11-22', now)).toBe(0);
    expect(daysLeft('2026-11-20', now)).toBe(-2);
    expect(daysLeft(null, now)).toBeNull();
  });
  it('is active when the flag is set and expDate is today or later', () => {
    expect(isUserActive({ active: true, expDate: '2026-11-22' }, now)).toBe(true);
    expect(isUserActive({ active: true, expDate: '2026-11-21' }, now)).toBe(false);
    expect(isUserActive({ active: false, expDate: '2027-01-01' }, now)).toBe(false);
    expect(isUserActive({ active: true, expDate: null }, now)).toBe(true);
  });
  it('is demo without a planId', () => {
    expect(isDemo({ planId: null })).toBe(true);
    expect(isDemo({ planId: 'p1' })).toBe(false);
  });
});

describe('header warning', () => {
  it('is danger at 11 days or fewer and expired at 0 or below', () => {
    expect(headerWarning(12)).toBe('none');
    expect(headerWarning(11)).toBe('danger');
    expect(headerWarning(1)).toBe('danger');
    expect(headerWarning(0)).toBe('expired');
    expect(headerWarning(-5)).toBe('expired');
    expect(headerWarning(null)).toBe('none');
  });
});

describe('role checks', () => {
  it('lets owner pass every check', () => {
    expect(hasRole('owner', [])).toBe(true);
    expect(isPrivileged('owner')).toBe(true);
  });
  it('passes listed roles only', () => {
    expect(hasRole('admin', ['admin'])).toBe(true);
    expect(hasRole('client', ['admin'])).toBe(false);
    expect(isPrivileged('support')).toBe(true);
    expect(isPrivileged('client')).toBe(false);
    expect(hasRole(undefined, ['client'])).toBe(false);
  });
});
