import type { PlanLimitsResponse } from '@leadrelay/shared';
import { Card, Progress, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../lib/format';
import { LIMIT_KEYS, type LimitKey } from './plan-texts';

const USAGE: Record<LimitKey, keyof PlanLimitsResponse['usage']> = {
  leadsPerMonth: 'leadsThisMonth',
  integrations: 'integrations',
  destinationsPerSource: 'destinationsPerSource',
};

/** What the account uses against its plan's (or the demo's) limits, one bar per limit. */
export function UsageCard({ data }: { data: PlanLimitsResponse }) {
  const { t } = useTranslation('plans');
  return (
    <Card title={data.demo ? t('usage.demoTitle') : t('usage.title')} className="lr-plan-usage">
      <div className="lr-usage-rows">
        {LIMIT_KEYS.map((key) => {
          const used = data.usage[USAGE[key]];
          const limit = data.limits[key];
          const over = limit !== null && used > limit;
          const figure =
            limit === null
              ? t('usage.unlimited', { used: formatNumber(used) })
              : t('usage.of', { used: formatNumber(used), limit: formatNumber(limit) });
          return (
            <div key={key} className="lr-usage-row" data-testid={`usage-${key}`}>
              <div className="lr-usage-label">
                <Typography.Text>{t(`usage.${key}`)}</Typography.Text>
                <Typography.Text type={over ? 'danger' : 'secondary'} className="lr-usage-figure">
                  {figure}
                </Typography.Text>
              </div>
              <Progress
                percent={limit === null ? 0 : Math.min(100, (used / limit) * 100)}
                showInfo={false}
                status={over || (limit !== null && used >= limit) ? 'exception' : 'normal'}
                aria-label={`${t(`usage.${key}`)}: ${figure}`}
              />
              {over && (
                <Typography.Text type="danger" className="lr-usage-over">
                  {t('usage.over')}
                </Typography.Text>
              )}
              {/* The one day boundary that is not the account's time zone: the usage month (ingest counts it). */}
              {key === 'leadsPerMonth' && (
                <Typography.Text type="secondary" className="lr-usage-note">
                  {t('usage.monthUtc')}
                </Typography.Text>
              )}
            </div>
          );
        })}
      </div>
    </Card>
  );
}
