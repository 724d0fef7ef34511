import { daysLeft } from '@leadrelay/shared';
import { Card, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

interface Props {
  /** The current plan's title; null for the demo period. */
  title: string | null;
  expDate: string | null;
}

/** "Ваш тариф: Бізнес · залишилось 20 днів" or "Демо-період · залишилось 5 днів". */
export function PlanStatus({ title, expDate }: Props) {
  const { t } = useTranslation('plans');
  const left = daysLeft(expDate);
  return (
    <Card size="small" className="lr-plan-status" data-testid="plan-status">
      <div className="lr-plan-status-line">
        {title === null ? (
          <Tag color="gold" className="lr-plan-status-tag">
            {t('status.demo')}
          </Tag>
        ) : (
          <>
            <Typography.Text type="secondary">{t('status.current')}:</Typography.Text>
            <Typography.Text strong>{title}</Typography.Text>
          </>
        )}
        {left !== null && (
          <Typography.Text type={left <= 11 ? 'danger' : 'secondary'}>
            {left <= 0 ? t('status.expired') : t('status.daysLeft', { count: left })}
          </Typography.Text>
        )}
      </div>
      {title === null && (
        <Typography.Paragraph type="secondary" className="lr-plan-status-hint">
          {t('status.demoHint')}
        </Typography.Paragraph>
      )}
    </Card>
  );
}
