import type { GuardianAlert, Locale } from '@leadrelay/shared';
import { Card, List, Skeleton, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/errors';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { useGuardianAlertsQuery } from '../queries';

/** The guardian's history: droughts and access warnings, open or over, and when the owner was told. */
export function AlertsCard() {
  const { t, i18n } = useTranslation('guardian');
  const locale = i18n.language as Locale;
  const alerts = useGuardianAlertsQuery();
  const nameOf = (a: GuardianAlert) => a.integration?.name ?? a.connection?.name ?? t('history.unknown');
  const what = (a: GuardianAlert) =>
    a.kind === 'drought'
      ? t('history.drought', {
          name: nameOf(a),
          since: a.silentSince ? formatDateTime(a.silentSince) : '—',
          expected: formatNumber(Math.max(1, Math.round(a.expected ?? 0)), locale),
        })
      : t('history.expiry', {
          name: nameOf(a),
          at: a.expiresAt ? formatDateTime(a.expiresAt) : '—',
          days: t('history.days', { count: a.daysAhead ?? 0 }),
        });
  return (
    <Card title={t('history.title')} data-testid="guardian-history">
      {alerts.isPending ? (
        <Skeleton active paragraph={{ rows: 3 }} />
      ) : alerts.isError ? (
        <Typography.Text type="danger">{errorMessage(alerts.error)}</Typography.Text>
      ) : (
        <List<GuardianAlert>
          dataSource={alerts.data}
          locale={{ emptyText: t('history.empty') }}
          renderItem={(a) => (
            <List.Item key={a._id} data-testid="guardian-alert">
              <div className="lr-guardian-alert">
                <div className="lr-guardian-alert-tags">
                  <Tag color={a.kind === 'drought' ? 'orange' : 'blue'}>{t(`history.kind.${a.kind}`)}</Tag>
                  <Tag color={a.closedAt ? 'default' : 'red'}>
                    {a.closedAt ? t('history.closed') : t('history.open')}
                  </Tag>
                </div>
                <Typography.Text className="lr-break">{what(a)}</Typography.Text>
                <Typography.Text type="secondary">
                  {t('history.opened', { at: formatDateTime(a.openedAt) })} ·{' '}
                  {a.notifiedAt ? t('history.told', { at: formatDateTime(a.notifiedAt) }) : t('history.notTold')}
                </Typography.Text>
              </div>
            </List.Item>
          )}
        />
      )}
    </Card>
  );
}
