import { ReloadOutlined } from '@ant-design/icons';
import type { DeliveryErrorRecord } from '@leadrelay/shared';
import { Button, Collapse, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { AttemptsTimeline } from '../../../components/hooks/attempts-timeline';
import { DeliveryStatusTag } from '../../../components/hooks/status-tags';
import { formatDateTime } from '../../../lib/hooks/format';

export function RestartButton(p: {
  record: DeliveryErrorRecord;
  running: boolean;
  onRestart: () => void;
  iconOnly?: boolean;
}) {
  const { t } = useTranslation('superAdmin');
  const button = (
    <Button
      size="small"
      icon={<ReloadOutlined aria-hidden />}
      loading={p.running}
      disabled={p.running || p.record.status === 'running'}
      onClick={p.onRestart}
      aria-label={t('errors.restart')}
    >
      {p.iconOnly ? null : t('errors.restart')}
    </Button>
  );
  return p.iconOnly ? <Tooltip title={t('errors.restart')}>{button}</Tooltip> : button;
}

export function ErrorAttempts({ record }: { record: DeliveryErrorRecord }) {
  const { t } = useTranslation('superAdmin');
  return record.children.length ? (
    <AttemptsTimeline attempts={record.children} />
  ) : (
    <Typography.Paragraph type="secondary">{t('errors.noAttempts')}</Typography.Paragraph>
  );
}

interface Props {
  data: DeliveryErrorRecord[];
  restarting: string[];
  onRestart: (r: DeliveryErrorRecord) => void;
}

/** Phones: one card per error record; the attempts fold out. */
export function ErrorsCards({ data, restarting, onRestart }: Props) {
  const { t } = useTranslation('superAdmin');
  if (!data.length) return <Typography.Paragraph type="secondary">{t('errors.empty')}</Typography.Paragraph>;
  return (
    <ul className="lr-error-cards">
      {data.map((r) => (
        <li key={r._id} className="lr-error-card" data-testid="error-card">
          <div className="lr-error-card-head">
            <Typography.Text strong className="lr-break">
              {r.account.login}
            </Typography.Text>
            <DeliveryStatusTag status={r.status} />
          </div>
          <Typography.Text type="secondary" className="lr-break">
            {r.integration.name} → {r.destination.name} ({r.destination.type})
          </Typography.Text>
          <Typography.Text type="danger" className="lr-break">
            {/* i18n-raw: the operator's delivery-error log shows the destination's answer as it came */}
            {r.message}
          </Typography.Text>
          <Typography.Text type="secondary" className="lr-error-card-dates">
            {t('errors.columns.created')}: {formatDateTime(r.createdAt)}
            {r.restartedAt && (
              <>
                <br />
                {t('errors.columns.restarted')}: {formatDateTime(r.restartedAt)}
              </>
            )}
          </Typography.Text>
          <div>
            <RestartButton record={r} running={restarting.includes(r._id)} onRestart={() => onRestart(r)} />
          </div>
          <Collapse
            size="small"
            ghost
            items={[
              {
                key: 'attempts',
                label: `${t('errors.attempts')} (${r.children.length})`,
                children: <ErrorAttempts record={r} />,
              },
            ]}
          />
        </li>
      ))}
    </ul>
  );
}
