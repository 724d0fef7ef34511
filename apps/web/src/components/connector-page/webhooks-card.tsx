import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { WebhooksCard } from '@leadrelay/connectors/manifest';
import type { Integration } from '@leadrelay/shared';
import { Button, Form, Input, Popconfirm, Select, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useServerCallMutation, useServerCallQuery } from '../../lib/connectors/queries';
import { errorMessage, translateCode } from '../../lib/errors';
import { useApp } from '../../lib/use-app';
import { PermissionGuard } from '../permission-guard';
import { DataCard } from './data-card';
import { usePage } from './page-context';
import { RowList } from './row-list';

interface Values {
  url: string;
  action: string;
  object: string;
  name?: string;
}

interface Webhook {
  id: string;
  url: string;
  event: string;
  active: boolean;
}

/** The webhooks a list call answers ({ id, url, event, active } each, bare or as `{ data }`). */
function webhooksOf(raw: unknown): Webhook[] {
  const items = Array.isArray(raw) ? raw : (raw as { data?: unknown } | null)?.data;
  return (Array.isArray(items) ? items : []).filter(
    (h): h is Webhook =>
      typeof h?.id === 'string' &&
      typeof h.url === 'string' &&
      typeof h.event === 'string' &&
      typeof h.active === 'boolean',
  );
}

/** Webhooks registered at the CRM itself: what it calls when something changes there. */
export function WebhooksCardView({ integration, card }: { integration: Integration; card: WebhooksCard<string> }) {
  const { t } = useTranslation('crm');
  const { t: tc } = useTranslation('common');
  const { manifest, say } = usePage();
  const crm = manifest.name;
  const { message } = useApp();
  const [form] = Form.useForm<Values>();
  const webhooks = useServerCallQuery(integration, card.list, { enabled: integration.isConnected });
  const create = useServerCallMutation(integration, card.create, card.list);
  const remove = useServerCallMutation(integration, card.remove, card.list);

  const onCreate = async (v: Values) => {
    try {
      await create.mutateAsync({
        body: { url: v.url.trim(), event: `${v.action}.${v.object}`, name: v.name?.trim() || undefined },
      });
      form.resetFields();
      void message.success(t('ui.saved_success'));
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };
  const onDelete = async (hook: Webhook) => {
    try {
      await remove.mutateAsync({ query: { id: hook.id } });
      void message.success(t('ui.deleted_success'));
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };

  return (
    <DataCard integration={integration} title={t('webhooks.title', { crm })} queries={[webhooks]}>
      <Typography.Paragraph type="secondary" className="lr-hint">
        {t('webhooks.hint', { crm })}
      </Typography.Paragraph>
      <RowList
        empty={t('webhooks.empty')}
        items={webhooksOf(webhooks.data).map((hook) => ({
          key: hook.id,
          testId: `${manifest.slug}-webhook`,
          title: <span className="lr-mono">{hook.url}</span>,
          description: (
            <span className="lr-crm-tags">
              <Tag>{hook.event}</Tag>
              {hook.active ? (
                <Tag color="green">{t('webhooks.active')}</Tag>
              ) : (
                <Tag color="orange">{t('webhooks.inactive')}</Tag>
              )}
            </span>
          ),
          actions: (
            <PermissionGuard>
              <Popconfirm
                title={t('webhooks.deleteConfirm', { crm })}
                okText={t('webhooks.delete')}
                okButtonProps={{ danger: true }}
                cancelText={tc('cancel')}
                onConfirm={() => onDelete(hook)}
              >
                <Button
                  size="small"
                  type="text"
                  danger
                  icon={<DeleteOutlined aria-hidden />}
                  aria-label={t('webhooks.deleteFor', { url: hook.url })}
                  loading={remove.isPending && remove.variables?.query?.id === hook.id}
                />
              </Popconfirm>
            </PermissionGuard>
          ),
        }))}
      />
      <Typography.Title level={5}>{t('webhooks.add')}</Typography.Title>
      <Form<Values> form={form} layout="vertical" requiredMark={false} onFinish={onCreate} initialValues={card.initial}>
        <Form.Item
          name="url"
          label={t('webhooks.url')}
          rules={[
            { required: true, whitespace: true, message: translateCode('REQUIRED') },
            {
              validator: async (_r, v: string | undefined) =>
                v?.trim() && !card.url.schema.safeParse(v.trim()).success
                  ? Promise.reject(new Error(t('webhooks.badUrl', { example: card.url.example })))
                  : undefined,
            },
          ]}
        >
          <Input placeholder={card.url.example} inputMode="url" className="lr-mono" />
        </Form.Item>
        <div className="lr-crm-pair">
          <Form.Item name="action" label={t('webhooks.action')} className="lr-grow">
            <Select options={card.actions.map((a) => ({ value: a.value, label: say(a.label) }))} />
          </Form.Item>
          <Form.Item name="object" label={t('webhooks.object')} className="lr-grow">
            <Select options={card.objects.map((o) => ({ value: o.value, label: say(o.label) }))} />
          </Form.Item>
        </div>
        <Form.Item name="name" label={t('webhooks.name')}>
          <Input maxLength={100} />
        </Form.Item>
        <div className="lr-actions">
          <PermissionGuard>
            <Button htmlType="submit" icon={<PlusOutlined aria-hidden />} loading={create.isPending}>
              {t('webhooks.create')}
            </Button>
          </PermissionGuard>
        </div>
      </Form>
    </DataCard>
  );
}
