import { ExportOutlined, MessageOutlined } from '@ant-design/icons';
import type { WidgetContact } from '@leadrelay/shared';
import { Avatar, Radio, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format';

export type ChannelKey = 'telegram' | 'whatsapp' | 'instagram' | 'messenger' | 'viber' | 'livechat';

/** The person's SendPulse contacts; with more than one, a radio picks who the message goes to. */
export function ContactList({
  contacts,
  selected,
  onSelect,
}: {
  contacts: WidgetContact[];
  selected: string | undefined;
  onSelect: (id: string) => void;
}) {
  const { t } = useTranslation('widget');
  const many = contacts.length > 1;
  const list = (
    <ul className="lr-widget-contacts">
      {contacts.map((c) => (
        <li key={c.id} className="lr-widget-contact">
          {many && <Radio value={c.id} aria-label={c.name} />}
          <Avatar icon={<MessageOutlined aria-hidden />} className="lr-widget-avatar" />
          <div className="lr-widget-contact-body">
            <div className="lr-widget-contact-head">
              <Typography.Text strong>{c.name}</Typography.Text>
              {c.username && <Typography.Text type="secondary">@{c.username}</Typography.Text>}
              <Tag color="blue">{t(`panel.channel.${c.channel as ChannelKey}`, { defaultValue: c.channel })}</Tag>
            </div>
            {c.lastActivityAt && (
              <Typography.Text type="secondary" className="lr-widget-small">
                {t('panel.lastActivity', { when: formatDateTime(c.lastActivityAt) })}
              </Typography.Text>
            )}
            <a href={c.conversationUrl} target="_blank" rel="noopener noreferrer" className="lr-widget-open">
              {t('panel.open')} <ExportOutlined aria-hidden />
            </a>
          </div>
        </li>
      ))}
    </ul>
  );
  return many ? (
    <Radio.Group value={selected} onChange={(e) => onSelect(e.target.value)} className="lr-widget-radio">
      {list}
    </Radio.Group>
  ) : (
    list
  );
}
