// An answer PLAN_LIMIT_* (an integration or a destination past the account's plan), from any
// screen, also offers the way out: a notice with a link to the plans page (issue 12: the web turns
// the key into an upgrade prompt). The screen that called shows its own error as usual.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { HttpError } from './http';
import { localePath } from './locale';
import { useApp } from './use-app';

const KEY = 'plan-limit';

export const isPlanLimit = (error: unknown): boolean =>
  error instanceof HttpError && error.code.startsWith('PLAN_LIMIT_');

export function usePlanLimitPrompt(): void {
  const qc = useQueryClient();
  const { notification } = useApp();
  const { t } = useTranslation('plans');

  useEffect(
    () =>
      qc.getMutationCache().subscribe((event) => {
        if (event.type !== 'updated' || event.action.type !== 'error' || !isPlanLimit(event.action.error)) return;
        notification.warning({
          key: KEY,
          title: t('limitPrompt.title'),
          description: (
            <Link to={localePath('/admin/plan')} onClick={() => notification.destroy(KEY)}>
              {t('limitPrompt.open')}
            </Link>
          ),
          placement: 'topRight',
        });
      }),
    [qc, notification, t],
  );
}
