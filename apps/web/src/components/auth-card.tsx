import { Card, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** The centred card of the auth pages, with the product name. */
export function AuthCard({ title, subtitle, children }: { title: string; subtitle?: ReactNode; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="lr-auth">
      <Card className="lr-auth-card" variant="borderless">
        <div className="lr-auth-brand">
          <span className="lr-logo-mark" aria-hidden="true">
            L
          </span>
          <span className="lr-auth-product">{t('appName')}</span>
        </div>
        <Typography.Title level={2} className="lr-auth-title">
          {title}
        </Typography.Title>
        {subtitle && <Typography.Paragraph type="secondary">{subtitle}</Typography.Paragraph>}
        {children}
      </Card>
    </div>
  );
}
