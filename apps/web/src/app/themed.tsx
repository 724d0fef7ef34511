// antd's theme around a route's component (issue 17 part 8): the layouts and the pages that use
// antd load it with their code, so /signin, which is plain markup, shows without it.
import type { ComponentType } from 'react';
import { useLocation } from 'react-router';
import { localeFromPath } from '../lib/locale';
import { AppTheme } from './theme';

/** `inline` for a page inside the plain public layout: its wrapper takes no box (AppTheme). */
export function themed(Component: ComponentType, inline = false): ComponentType {
  function Themed() {
    const locale = localeFromPath(useLocation().pathname);
    return (
      <AppTheme locale={locale} inline={inline}>
        <Component />
      </AppTheme>
    );
  }
  Themed.displayName = `Themed(${Component.displayName ?? Component.name})`;
  return Themed;
}
