import './integrations.css';
import type { Reason } from '@leadrelay/shared';
import { useTranslation } from 'react-i18next';
import { reasonDetail } from '../../lib/integrations/reasons';
import { parseStoredReason } from '../../lib/integrations/stored-reasons';

/**
 * The service's own words behind a reason (an ad platform's message, a CRM's answer), folded under
 * "Technical details" in the user's language: support may ask for them, the page never reads them
 * out as its text (issue 17 part 3). Nothing when the reason has none.
 */
export function ReasonDetails({ reason }: { reason: Reason | string | null | undefined }) {
  const { t } = useTranslation('common');
  if (!reason) return null;
  const detail = reasonDetail(typeof reason === 'string' ? parseStoredReason(reason) : reason);
  if (!detail) return null;
  return (
    <details className="lr-reason-details" data-testid="reason-details">
      <summary>{t('technicalDetails')}</summary>
      {/* i18n-raw: the service's own words, folded under a label in the user's language */}
      <code className="lr-break">{detail}</code>
    </details>
  );
}
