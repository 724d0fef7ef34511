import { CheckCircleTwoTone, ClockCircleOutlined } from '@ant-design/icons';
import type { Integration } from '@leadrelay/shared';
import { Card, List, Select, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorMessage } from '../../../lib/errors';
import { useCollectionsQuery, useUpdateIntegrationMutation } from '../../../lib/integrations/queries';
import { localePath } from '../../../lib/locale';
import { useApp } from '../../../lib/use-app';

const NONE = '';

/** The collection whose managers link their Telegram to this bot, and who of them has. */
export function TelegramManagersCard({ integration }: { integration: Integration }) {
  const { t } = useTranslation('telegram');
  const { t: tc } = useTranslation('common');
  const { message } = useApp();
  const collections = useCollectionsQuery();
  const update = useUpdateIntegrationMutation();
  const chosen = collections.data?.data.find((c) => c._id === integration.distributionId);

  const onChange = async (value: string) => {
    try {
      await update.mutateAsync({ id: integration._id, body: { distributionId: value === NONE ? null : value } });
      void message.success(tc('saved'));
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };

  return (
    <Card title={t('managers.title')}>
      <Typography.Paragraph type="secondary" className="lr-hint">
        {t('managers.hint')}
      </Typography.Paragraph>
      <Select
        value={integration.distributionId ?? NONE}
        onChange={onChange}
        loading={collections.isPending || update.isPending}
        aria-label={t('managers.collection')}
        className="lr-full"
        options={[
          { value: NONE, label: t('managers.none') },
          ...(collections.data?.data ?? []).map((c) => ({ value: c._id, label: c.name })),
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
