import { useMutation } from '@tanstack/react-query';
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DeferredApp, renderPage } from '../test/render';
import { HttpError } from './http';
import { usePlanLimitPrompt } from './plan-limit-prompt';

function Screen({ code }: { code: string }) {
  usePlanLimitPrompt();
  const create = useMutation({
    mutationFn: async () => {
      throw new HttpError(403, { code, message: code } as never);
    },
  });
  return (
    <button type="button" onClick={() => create.mutate()}>
      create
    </button>
  );
}

describe('the upgrade prompt', () => {
  it('offers the plans page when a create is refused by the plan', async () => {
    // As in the app, the provider of notices sits inside the router.
    renderPage(
      <DeferredApp>
        <Screen code="PLAN_LIMIT_INTEGRATIONS" />
      </DeferredApp>,
      { path: '/admin/create' },
    );
    fireEvent.click(screen.getByText('create'));
    expect(await screen.findByText('Потрібен більший тариф')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Обрати тариф' }).getAttribute('href')).toBe('/admin/plan');
  });

  it('stays quiet for any other refusal', async () => {
    renderPage(
      <DeferredApp>
        <Screen code="FORBIDDEN" />
      </DeferredApp>,
      { path: '/admin/create' },
    );
    fireEvent.click(screen.getByText('create'));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByText('Потрібен більший тариф')).toBeNull();
  });
});
