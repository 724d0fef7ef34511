import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The centred card of the auth pages, with the product name. Plain elements, not antd's Card:
 * its chunk brings Tabs, Menu and Dropdown, a quarter of /signin's first load (issue 17 part 8).
 */
export function AuthCard({ title, subtitle, children }: { title: string; subtitle?: ReactNode; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="lr-auth">
      <section className="lr-auth-card" aria-labelledby="lr-auth-title">
        <div className="lr-auth-brand">
          <span className="lr-logo-mark" aria-hidden="true">
            L
          </span>
          <span className="lr-auth-product">{t('appName')}</span>
        </div>
        <h1 id="lr-auth-title" className="lr-auth-title">
          {title}
        </h1>
        {subtitle && <p className="lr-auth-subtitle">{subtitle}</p>}
        {children}
      </section>
    </div>
  );
}
