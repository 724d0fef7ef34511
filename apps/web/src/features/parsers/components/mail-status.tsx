import type { ParserMailStatus } from '@leadrelay/shared';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const COLORS: Record<ParserMailStatus, string> = {
  received: 'processing',
  lead: 'green',
  held: 'gold',
  filtered: 'default',
  duplicate: 'default',
  no_match: 'orange',
  rejected: 'red',
};

export function MailStatusTag({ status }: { status: ParserMailStatus }) {
  const { t } = useTranslation('parsers');
  return <Tag color={COLORS[status]}>{t(`status.${status}`)}</Tag>;
}

/** A reason key in the user's words; a filter's own words as they are. */
export function useReasonText() {
  const { t, i18n } = useTranslation('parsers');
  return (reason: string | null | undefined) => {
    if (!reason) return '';
    const key = `parsers:reasons.${reason}`;
    return i18n.exists(key) ? t(`reasons.${reason}` as 'reasons.MAIL_TOO_LARGE') : reason;
  };
}
