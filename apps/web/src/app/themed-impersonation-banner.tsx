import type { Locale } from '@leadrelay/shared';
import { ImpersonationBanner } from '../components/impersonation-banner';
import { AppTheme } from './theme';

/** The banner in antd's theme, for the language root (it sits above the layouts, which bring their own). */
export function ThemedImpersonationBanner({ locale }: { locale: Locale }) {
  return (
    <AppTheme locale={locale}>
      <ImpersonationBanner />
    </AppTheme>
  );
}
