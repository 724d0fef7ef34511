import { CheckCircleTwoTone, ClockCircleOutlined } from '@ant-design/icons';
import type { Integration } from '@leadrelay/shared';
import { Card, List, Select, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { NO_COLLECTION, useDistributionChoice } from '../../../lib/integrations/use-distribution-choice';
import { localePath } from '../../../lib/locale';

/** The collection whose managers link their Telegram to this bot, and who of them has. */
export function TelegramManagersCard({ integration }: { integration: Integration }) {
  const { t } = useTranslation('telegram');
  const { collections, chosen, choose, busy, value } = useDistributionChoice(integration);

  return (
    <Card title={t('managers.title')}>
      <Typography.Paragraph type="secondary" className="lr-hint">
        {t('managers.hint')}
      </Typography.Paragraph>
      <Select
        value={value}
        onChange={choose}
        loading={busy}
        aria-label={t('managers.collection')}
        className="lr-full"
        options={[
          { value: NO_COLLECTION, label: t('managers.none') },
          ...collections.map((c) => ({ value: c._id, label: c.name })),
        ]}
      />
      {chosen && (
        <List
          className="lr-mt"
          size="small"
          dataSource={chosen.items}
          locale={{ emptyText: t('managers.empty') }}
          renderItem={(item) => (
            <List.Item>
              <Space wrap>
                {item.telegram ? (
                  <CheckCircleTwoTone aria-hidden twoToneColor="#52c41a" />
                ) : (
                  <ClockCircleOutlined aria-hidden />
                )}
                <span>{item.name}</span>
                {item.telegram ? (
                  <Tag color="green">
                    {item.telegram.username ? `@${item.telegram.username}` : t('managers.linked')}
                  </Tag>
                ) : (
                  <Tag>{t('managers.notLinked')}</Tag>
                )}
              </Space>
            </List.Item>
          )}
        />
      )}
      <Typography.Paragraph className="lr-hint lr-mt">
        <Link to={localePath('/admin/collections')}>{t('managers.linkThem')}</Link>
      </Typography.Paragraph>
    </Card>
  );
}
