import type { GuardianAlert, Locale } from '@leadrelay/shared';
import { Card, List, Skeleton, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorMessage } from '../../../lib/errors';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { integrationPath } from '../../../lib/integrations/integration-path';
import { reasonLabel } from '../../../lib/integrations/reasons';
import { useGuardianAlertsQuery } from '../queries';

const KIND_COLOR = { drought: 'orange', expiry: 'blue', access: 'volcano' } as const;

/**
 * The guardian's history: droughts, access warnings and sources whose sender refused our access
 * (with the reason in the user's words and a link to connect it again), open or over, and when the
 * owner was told.
 */
export function AlertsCard() {
  const { t, i18n } = useTranslation('guardian');
  const locale = i18n.language as Locale;
  const alerts = useGuardianAlertsQuery();
  const nameOf = (a: GuardianAlert) => a.integration?.name ?? a.connection?.name ?? t('history.unknown');
  const what = (a: GuardianAlert) => {
    switch (a.kind) {
      case 'drought':
        return t('history.drought', {
          name: nameOf(a),
          since: a.silentSince ? formatDateTime(a.silentSince) : '—',
          expected: formatNumber(Math.max(1, Math.round(a.expected ?? 0)), locale),
        });
      case 'expiry':
        return t('history.expiry', {
          name: nameOf(a),
          at: a.expiresAt ? formatDateTime(a.expiresAt) : '—',
          days: t('history.days', { count: a.daysAhead ?? 0 }),
        });
      case 'access':
        return t('history.access', { name: nameOf(a), since: formatDateTime(a.openedAt) });
    }
  };
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
                  <Tag color={KIND_COLOR[a.kind]}>{t(`history.kind.${a.kind}`)}</Tag>
                  <Tag color={a.closedAt ? 'default' : 'red'}>
                    {a.closedAt ? t('history.closed') : t('history.open')}
                  </Tag>
                </div>
                <Typography.Text className="lr-break">{what(a)}</Typography.Text>
                {a.kind === 'access' ? (
                  <Typography.Text className="lr-break" data-testid="guardian-alert-reason">
                    {reasonLabel(a.reason ?? { code: 'AUTH' })}
                  </Typography.Text>
                ) : null}
                {a.kind === 'access' && !a.closedAt && a.integration ? (
                  <Link to={integrationPath(a.integration)} data-testid="guardian-alert-reconnect">
                    {t('history.reconnect', { name: a.integration.name })}
                  </Link>
                ) : null}
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
