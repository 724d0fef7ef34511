import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import type { Setting } from '@leadrelay/shared';
import { Button, Card, Descriptions, Popconfirm, Skeleton, Space, Switch, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { categoryLabel, tagLabel, typeLabel } from '../../../lib/integrations/catalogue';
import { TagRow } from './catalogue-parts';

interface Props {
  types: Setting[];
  loading: boolean;
  nameOf: (slug: string) => string;
  onHidden: (setting: Setting, hidden: boolean) => void;
  onEdit: (setting: Setting) => void;
  onDelete: (setting: Setting) => Promise<void>;
}

/** The types on a phone: one card each, every column of the table as a line. */
export function TypeCards({ types, loading, nameOf, onHidden, onEdit, onDelete }: Props) {
  const { t } = useTranslation('catalogue');
  if (loading) return <Skeleton active />;
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      {types.map((s) => (
        <Card
          key={s._id}
          size="small"
          title={typeLabel(s)}
          extra={
            <Space>
              <Button
                size="small"
                icon={<EditOutlined aria-hidden />}
                aria-label={t('edit')}
                onClick={() => onEdit(s)}
              />
              <Popconfirm
                title={t('types.deleteConfirm', { name: typeLabel(s) })}
                okText={t('delete')}
                cancelText={t('cancel')}
                onConfirm={() => onDelete(s)}
              >
                <Button size="small" danger icon={<DeleteOutlined aria-hidden />} aria-label={t('delete')} />
              </Popconfirm>
            </Space>
          }
        >
          <Descriptions
            size="small"
            column={1}
            items={[
              {
                key: 'hidden',
                label: t('types.hidden'),
                children: (
                  <Switch
                    size="small"
                    checked={s.hidden}
                    disabled={!s.available}
                    aria-label={t('types.hiddenToggle', { name: typeLabel(s) })}
                    onChange={(hidden) => onHidden(s, hidden)}
                  />
                ),
              },
              {
                key: 'category',
                label: t('types.category'),
                children: s.category ? categoryLabel(s.category.name) : '—',
              },
              {
                key: 'slug',
                label: t('types.slug'),
                children: (
                  <Space size={4} wrap>
                    <Typography.Text code>{s.slug}</Typography.Text>
                    {!s.available && <Tag color="orange">{t('types.unavailable')}</Tag>}
                  </Space>
                ),
              },
              ...(s.kind === 'source'
                ? [
                    {
                      key: 'destinations',
                      label: t('types.destinations'),
                      children: <TagRow items={s.destinations.map((d) => ({ key: d.slug, label: nameOf(d.slug) }))} />,
                    },
                  ]
                : []),
              {
                key: 'tags',
                label: t('types.tags'),
                children: <TagRow items={s.tags.map((tag) => ({ key: tag, label: tagLabel(tag) }))} />,
              },
              {
                key: 'modules',
                label: t('types.modules'),
                // A module's name is the operator's own words, in whatever language they were typed: data.
                children: s.modules.length ? (
                  <span translate="no">{s.modules.map((m) => m.name).join(' → ')}</span>
                ) : (
                  '—'
                ),
              },
            ]}
          />
        </Card>
      ))}
    </Space>
  );
}
