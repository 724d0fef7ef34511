import type { ParserMailStatus } from '@leadrelay/shared';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { reasonText } from '../../../lib/integrations/reasons';

const COLORS: Record<ParserMailStatus, string> = {
  received: 'processing',
  lead: 'green',
  held: 'gold',
  filtered: 'default',
  duplicate: 'default',
  no_match: 'orange',
  rejected: 'red',
  failed: 'error',
};

export function MailStatusTag({ status }: { status: ParserMailStatus }) {
  const { t } = useTranslation('parsers');
  return <Tag color={COLORS[status]}>{t(`status.${status}`)}</Tag>;
}

/** A reason in the user's words: a mail's own code, else a hook's stored reason (lib/integrations/reasons). */
export function useReasonText() {
  const { t, i18n } = useTranslation('parsers');
  return (reason: string | null | undefined) => {
    if (!reason) return '';
    const key = `parsers:reasons.${reason}`;
    return i18n.exists(key) ? t(`reasons.${reason}` as 'reasons.MAIL_TOO_LARGE') : reasonText(reason);
  };
}
