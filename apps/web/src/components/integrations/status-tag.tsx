import type { Integration } from '@leadrelay/shared';
import { Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { translateCode } from '../../lib/errors';
import { i18n } from '../../lib/i18n';

/**
 * A connection failure reason for people: the connector kit's codes (URL_NOT_ALLOWED: detail …)
 * and server error codes are translated, the technical detail is kept; other messages as written.
 */
export function reasonText(reason: string): string {
  const match = /^([A-Z][A-Z0-9_]*)(?::\s*(.*))?$/s.exec(reason);
  if (!match) return reason;
  const [, code, detail] = match as unknown as [string, string, string | undefined];
  const key = `integrations:reasons.${code}`;
  const text = i18n.exists(key) ? i18n.t(key as 'integrations:reasons.NETWORK') : translateCode(code, '');
  if (!text) return reason;
  return detail ? `${text} (${detail})` : text;
}

/** A broken connection is red with its reason (a server error code is translated, a message shown as is). */
export function StatusTag({ integration, withReason = true }: { integration: Integration; withReason?: boolean }) {
  const { t } = useTranslation('integrations');
  if (integration.status === 'broken') {
    const reason = integration.statusReason;
    return (
      <span className="lr-int-status">
        <Tag color="red">{t('status.broken')}</Tag>
        {withReason && reason && (
          <Typography.Text type="danger" className="lr-int-reason">
            {reasonText(reason)}
          </Typography.Text>
        )}
      </span>
    );
  }
  return <Tag color="green">{t('status.ok')}</Tag>;
}
