import type { AttemptOutcome, HookAttempt } from '@leadrelay/shared';
import { Collapse, Tag, Timeline, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../lib/format';
import { formatDateTime, pretty } from '../../lib/hooks/format';
import { reasonText } from '../integrations/status-tag';
import './hooks.css';
import { ReasonDetails } from '../integrations/reason-details';

const OUTCOME_COLOR: Record<AttemptOutcome, string> = { ok: 'green', retryable: 'orange', permanent: 'red' };
const OUTCOME_TAG: Record<AttemptOutcome, string> = { ok: 'success', retryable: 'warning', permanent: 'error' };

function Trace({ value }: { value: unknown }) {
  return <pre className="lr-trace">{pretty(value)}</pre>;
}

/** The tries of one delivery, oldest first: number, outcome, HTTP code, duration, error (its code translated), traces. */
export function AttemptsTimeline({ attempts }: { attempts: HookAttempt[] }) {
  const { t } = useTranslation('hooks');
  if (!attempts.length) return <Typography.Text type="secondary">{t('detail.noAttempts')}</Typography.Text>;
  const ordered = [...attempts].sort((a, b) => a.number - b.number);
  return (
    <Timeline
      className="lr-attempts"
      items={ordered.map((a) => {
        const traces = [
          ...(a.request != null
            ? [{ key: 'request', label: t('detail.attemptRequest'), children: <Trace value={a.request} /> }]
            : []),
          ...(a.response != null
            ? [{ key: 'response', label: t('detail.attemptResponse'), children: <Trace value={a.response} /> }]
            : []),
        ];
        return {
          key: a._id ?? a.number,
          color: OUTCOME_COLOR[a.outcome] ?? 'gray',
          content: (
            <div className="lr-attempt" data-testid="attempt">
              <div className="lr-attempt-head">
                <Typography.Text strong>{t('detail.attempt', { number: a.number })}</Typography.Text>
                <Tag color={OUTCOME_TAG[a.outcome] ?? 'default'}>{t(`detail.outcome.${a.outcome}`)}</Tag>
                {a.httpStatus != null && (
                  <Tag data-testid="attempt-http">{t('detail.http', { code: a.httpStatus })}</Tag>
                )}
                {a.durationMs != null && (
                  <Typography.Text type="secondary">
                    {t('detail.duration', { ms: formatNumber(a.durationMs) })}
                  </Typography.Text>
                )}
              </div>
              <Typography.Text type="secondary" className="lr-attempt-time">
                {formatDateTime(a.startedAt)}
              </Typography.Text>
              {a.error && (
                <Typography.Paragraph type="danger" className="lr-attempt-error">
                  {reasonText(a.error)}
                </Typography.Paragraph>
              )}
              {a.error && <ReasonDetails reason={a.error} />}
              {traces.length > 0 && <Collapse size="small" ghost items={traces} />}
            </div>
          ),
        };
      })}
    />
  );
}
