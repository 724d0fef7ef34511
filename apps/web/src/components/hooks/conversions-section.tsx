// The lead's CRM stages sent back to its ad platform (issue 33): each conversion event, oldest
// first, with its stage, state, when it went, the platform's answer and a failure's reason. Shown
// only for a lead that has any.
import { CONVERSION_INITIAL_STAGE, type ConversionState, type ConversionView } from '@leadrelay/shared';
import { Card, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useManifest } from '../../lib/connectors/manifests';
import { formatNumber } from '../../lib/format';
import { formatDateTime } from '../../lib/hooks/format';
import { reasonText } from '../../lib/integrations/reasons';

const STATE_COLOR: Record<ConversionState, string> = { pending: 'processing', sent: 'success', failed: 'error' };

function ConversionCard({ event }: { event: ConversionView }) {
  const { t } = useTranslation('hooks');
  const stage =
    event.stageName ?? (event.stage === CONVERSION_INITIAL_STAGE ? t('conversions.initialStage') : event.stage);
  return (
    <Card
      size="small"
      data-testid="conversion-row"
      data-state={event.state}
      title={
        <span className="lr-delivery-title">
          <span className="lr-break">{event.eventName}</span>{' '}
          <Tag color={STATE_COLOR[event.state] ?? 'default'}>{t(`conversions.states.${event.state}`)}</Tag>
        </span>
      }
      extra={<Typography.Text type="secondary">{t('detail.attempts', { count: event.attempts })}</Typography.Text>}
    >
      <Typography.Paragraph className="lr-break">{t('conversions.stage', { stage })}</Typography.Paragraph>
      {event.sentAt && (
        <Typography.Paragraph>{t('conversions.sentAt', { time: formatDateTime(event.sentAt) })}</Typography.Paragraph>
      )}
      {event.state === 'pending' && event.nextAttemptAt && (
        <Typography.Paragraph>
          {t('detail.nextAttempt', { time: formatDateTime(event.nextAttemptAt) })}
        </Typography.Paragraph>
      )}
      {event.answer && (
        <Typography.Paragraph data-testid="conversion-answer">
          {t('conversions.received', { n: formatNumber(event.answer.eventsReceived) })}
          {event.answer.fbtraceId && (
            <>
              {' · '}
              {t('conversions.trace')} <Typography.Text code>{event.answer.fbtraceId}</Typography.Text>
            </>
          )}
        </Typography.Paragraph>
      )}
      {event.answer?.messages.map((m) => (
        <Typography.Paragraph key={m} type="secondary" className="lr-break">
          {m}
        </Typography.Paragraph>
      ))}
      {event.error && (
        <Typography.Paragraph type="danger" className="lr-break">
          {reasonText(event.error)}
        </Typography.Paragraph>
      )}
    </Card>
  );
}

/** The lead's conversion events, under the brand they go to (its source's manifest), or nothing. */
export function ConversionsSection({ type, conversions }: { type: string; conversions: readonly ConversionView[] }) {
  const { t } = useTranslation('hooks');
  const to = useManifest(type)?.conversions?.to;
  if (!conversions.length) return null;
  return (
    <section data-testid="conversions-section" className="lr-mb">
      <Typography.Title level={5}>{to ? t('conversions.title', { to }) : t('conversions.titleAny')}</Typography.Title>
      <Space orientation="vertical" size="middle" className="lr-full-width">
        {conversions.map((c) => (
          <ConversionCard key={`${c.pipelineId ?? ''}/${c.stage}`} event={c} />
        ))}
      </Space>
    </section>
  );
}
