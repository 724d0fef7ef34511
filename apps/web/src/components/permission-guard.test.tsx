import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { setToken } from '../lib/auth';
import { fakeJwt, makeUser, renderPage } from '../test/render';
import { PermissionGuard } from './permission-guard';

const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

function setup(expDate: string | null, role: 'client' | 'owner' = 'client') {
  setToken(fakeJwt({ sub: 'u1', login: 'a@b.co', role, exp: Date.now() / 1000 + 600 }));
  const onClick = vi.fn();
  renderPage(
    <PermissionGuard>
      <button type="button" onClick={onClick}>
        Add
      </button>
    </PermissionGuard>,
    { user: makeUser({ expDate, role }) },
  );
  return onClick;
}

describe('PermissionGuard', () => {
  it('blocks clicks and dims the element when days left is 0', async () => {
    const onClick = setup(day(0));
    const button = await screen.findByRole('button', { name: 'Add' });
    fireEvent.click(button);
    expect(onClick).not.toHaveBeenCalled();
    expect(button.closest('[data-blocked]')).toHaveProperty('style.opacity', '0.5');
  });

  it('blocks for every role, the owner included', async () => {
    const onClick = setup(day(-3), 'owner');
    fireEvent.click(await screen.findByRole('button', { name: 'Add' }));
    expect(onClick).not.toHaveBeenCalled();
  });

  it('lets clicks through while days remain or the account never expires', async () => {
    const onClick = setup(day(1));
    const button = await screen.findByRole('button', { name: 'Add' });
    fireEvent.click(button);
    expect(onClick).toHaveBeenCalledTimes(1);
    expect(button.closest('[data-blocked]')).toBeNull();
  });
});
