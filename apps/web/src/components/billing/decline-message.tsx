import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { i18n } from '../../lib/i18n';

// No bank said no: the payment service could not be reached (another card would not help).
const PROVIDER_UNREACHABLE = 'provider_unreachable';

/** The words for a provider's decline code; null for a code we have no words for. */
export function declineReason(code: string | null): string | null {
  if (!code) return null;
  const key = `billing:decline.reasons.${code}`;
  return i18n.exists(key) ? i18n.t(key as 'billing:decline.generic') : null;
}

/**
 * Why a card payment failed: the provider's code in words ("limit", "3ds_failed", …); a code we do
 * not know reads as "the bank declined the payment", with the code in small print for support.
 */
export function DeclineMessage({ code }: { code: string | null }) {
  const { t } = useTranslation('billing');
  const declined = declineReason(code);
  return (
    <div className="lr-decline" data-testid="decline-message">
      <Typography.Paragraph className="lr-decline-text">{declined ?? t('decline.generic')}</Typography.Paragraph>
      {code !== PROVIDER_UNREACHABLE && (
        <Typography.Paragraph type="secondary" className="lr-decline-hint">
          {t('decline.hint')}
        </Typography.Paragraph>
      )}
      {code && !declined && (
        <Typography.Text type="secondary" className="lr-decline-code">
          {t('decline.code', { code })}
        </Typography.Text>
      )}
    </div>
  );
}
