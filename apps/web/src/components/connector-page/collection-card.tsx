// The `collection` widget kind (kit/manifest-people.ts): the integration's distribution collection,
// chosen and saved at once, and which of its people have linked themselves (a chat).
import { CheckCircleTwoTone, ClockCircleOutlined } from '@ant-design/icons';
import type { CollectionCard } from '@leadrelay/connectors/manifest';
import { ownValue } from '@leadrelay/shared';
import { Card, List, Select, Space, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import { NO_COLLECTION, useDistributionChoice } from '../../lib/integrations/use-distribution-choice';
import { localePath } from '../../lib/locale';
import type { CardProps } from './use-settings-form';

export function CollectionCardView({ integration, card, say }: CardProps<CollectionCard<string>>) {
  const { collections, chosen, choose, busy, value } = useDistributionChoice(integration);
  const { linked } = card;

  return (
    <Card title={say(card.title)}>
      <Typography.Paragraph type="secondary" className="lr-hint">
        {say(card.hint)}
      </Typography.Paragraph>
      <Select
        value={value}
        onChange={choose}
        loading={busy}
        aria-label={say(card.label)}
        className="lr-full"
        options={[
          { value: NO_COLLECTION, label: say(card.none) },
          ...collections.map((c) => ({ value: c._id, label: c.name })),
        ]}
      />
      {chosen && (
        <List
          className="lr-mt"
          size="small"
          dataSource={chosen.items}
          locale={{ emptyText: say(card.empty) }}
          renderItem={(item) => {
            const link = ownValue(item, linked.field);
            const handle = linked.handle && link ? ownValue(link, linked.handle) : undefined;
            return (
              <List.Item>
                <Space wrap>
                  {link ? (
                    <CheckCircleTwoTone aria-hidden twoToneColor="#52c41a" />
                  ) : (
                    <ClockCircleOutlined aria-hidden />
                  )}
                  <span>{item.name}</span>
                  {link ? (
                    <Tag color="green">{typeof handle === 'string' && handle ? `@${handle}` : say(linked.yes)}</Tag>
                  ) : (
                    <Tag>{say(linked.no)}</Tag>
                  )}
                </Space>
              </List.Item>
            );
          }}
        />
      )}
      <Typography.Paragraph className="lr-hint lr-mt">
        <Link to={localePath('/admin/collections')}>{say(card.manage)}</Link>
      </Typography.Paragraph>
    </Card>
  );
}
