import { useTranslation } from 'react-i18next';
import { useMatches } from 'react-router';
import type { RouteHandle } from '../lib/route-handle';

/** The title key of the deepest matched route. */
export function useRouteTitle(): string {
  const { t } = useTranslation('pages');
  const handle = useMatches()
    .map((m) => m.handle as RouteHandle | undefined)
    .filter(Boolean)
    .at(-1);
  return handle ? t(`titles.${handle.title}`) : '';
}
