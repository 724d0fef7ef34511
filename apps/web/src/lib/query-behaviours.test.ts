import { STORAGE } from '@leadrelay/shared';
import { act, renderHook } from '@testing-library/react';
import Cookies from 'js-cookie';
import { describe, expect, it, vi } from 'vitest';
import {
  captureHiddenActions,
  capturePromo,
  readHiddenActions,
  readPromo,
  useHiddenActions,
  usePageSize,
} from './query-behaviours';

describe('promo', () => {
  it('stores ?promo= in the promo cookie for 90 days', () => {
    const set = vi.spyOn(Cookies, 'set');
    const now = Date.now();
    expect(capturePromo('?promo=SPRING25', now)).toBe('SPRING25');
    expect(readPromo()).toBe('SPRING25');
    const options = set.mock.calls[0]?.[2] as { expires: Date };
    expect(options.expires.getTime() - now).toBe(7_776_000 * 1000);
    set.mockRestore();
  });
  it('leaves the cookie alone without the parameter', () => {
    expect(capturePromo('?x=1')).toBeNull();
    expect(readPromo()).toBeUndefined();
  });
});

describe('hidden actions', () => {
  it('keeps ?actions=a,b in local storage and the hook hides them', () => {
    captureHiddenActions('?actions=export, delete');
    expect(JSON.parse(localStorage.getItem(STORAGE.hiddenActions) ?? '')).toEqual(['export', 'delete']);
    const { result } = renderHook(() => useHiddenActions());
    expect(result.current.isHidden('export')).toBe(true);
    expect(result.current.isHidden('create')).toBe(false);
    act(() => void captureHiddenActions('?actions=create'));
    expect(result.current.isHidden('create')).toBe(true);
    expect(result.current.isHidden('export')).toBe(false);
  });
  it('keeps the stored list when the parameter is absent and survives bad storage', () => {
    captureHiddenActions('?actions=a');
    expect(captureHiddenActions('?other=1')).toBeNull();
    expect(readHiddenActions()).toEqual(['a']);
    localStorage.setItem(STORAGE.hiddenActions, '{not json');
    expect(readHiddenActions()).toEqual([]);
  });
});

describe('page size', () => {
  it('defaults to 10 and is kept in local storage limit', () => {
    const { result } = renderHook(() => usePageSize());
    expect(result.current[0]).toBe(10);
    act(() => result.current[1](50));
    expect(result.current[0]).toBe(50);
    expect(localStorage.getItem('limit')).toBe('50');
  });
  it('ignores a broken stored value', () => {
    localStorage.setItem('limit', 'abc');
    const { result } = renderHook(() => usePageSize());
    expect(result.current[0]).toBe(10);
  });
});
