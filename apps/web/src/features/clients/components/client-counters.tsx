import type { UserCounters } from '@leadrelay/shared';
import { Card, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../lib/format';

/** Total, active, inactive, deleted: a click filters the table by that status. */
export function ClientCounters({
  counter,
  onPick,
}: {
  counter: UserCounters | undefined;
  onPick: (status: 'active' | 'inactive' | 'deleted' | undefined) => void;
}) {
  const { t } = useTranslation('clients');
  const items = [
    { key: undefined, label: t('counters.total'), value: counter?.total },
    { key: 'active' as const, label: t('counters.active'), value: counter?.active },
    { key: 'inactive' as const, label: t('counters.inactive'), value: counter?.inactive },
    { key: 'deleted' as const, label: t('counters.deleted'), value: counter?.deleted },
  ];
  return (
    <div className="lr-client-counters">
      {items.map((item) => (
        <Card
          key={item.label}
          size="small"
          hoverable
          onClick={() => onPick(item.key)}
          data-testid={`counter-${item.key ?? 'total'}`}
        >
          <Statistic title={item.label} value={item.value === undefined ? '—' : formatNumber(item.value)} />
        </Card>
      ))}
    </div>
  );
}
