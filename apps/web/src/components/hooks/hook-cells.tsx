import type { Hook, LeadReaction } from '@leadrelay/shared';
import { Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime, leadSummary } from '../../lib/hooks/format';
import { DeliveryChip } from './status-tags';

/** Name, then phone and e-mail, of the hook's lead; a dash when it has none of them. */
export function LeadCell({ hook }: { hook: Hook }) {
  const { t } = useTranslation('hooks');
  const { name, phone, email } = leadSummary(hook);
  if (!name && !phone && !email) return <Typography.Text type="secondary">{t('detail.empty')}</Typography.Text>;
  return (
    <div className="lr-lead-cell">
      {name && <Typography.Text strong>{name}</Typography.Text>}
      {phone && <Typography.Text className="lr-nowrap">{phone}</Typography.Text>}
      {email && <Typography.Text type="secondary">{email}</Typography.Text>}
      <ReactionTags reactions={hook.reactions} />
    </div>
  );
}

export function DeliveryChips({ hook }: { hook: Hook }) {
  const { t } = useTranslation('hooks');
  if (!hook.deliveries.length) {
    return (
      <Typography.Text type="secondary">
        {hook.status === 'accepted' ? t('delivery.none') : t('detail.empty')}
      </Typography.Text>
    );
  }
  return (
    <div className="lr-delivery-chips">
      {hook.deliveries.map((d) => (
        <DeliveryChip key={d._id} delivery={d} />
      ))}
    </div>
  );
}

/**
 * Who took the lead and who called back (issue 19): a tag each, with when and where it was
 * recorded (the manager bot, the web, the CRM) on hover and for screen readers.
 */
export function ReactionTags({ reactions }: { reactions: readonly LeadReaction[] | undefined }) {
  const { t } = useTranslation('hooks');
  if (!reactions?.length) return null;
  return (
    <span className="lr-reactions" data-testid="lead-reactions">
      {reactions.map((r) => {
        const when = t('reactions.at', { time: formatDateTime(r.at), via: t(`reactions.via.${r.via}`) });
        return (
          <Tag key={r.kind} color={r.kind === 'taken' ? 'green' : 'blue'} title={when} className="lr-reaction-tag">
            {t(`reactions.${r.kind}`, { name: r.byName ?? t('reactions.someone') })}
            <span className="lr-sr-only">, {when}</span>
          </Tag>
        );
      })}
    </span>
  );
}
