import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { type Integration, type PipedriveWebhook, ZPipedriveWebhookBody } from '@leadrelay/shared';
import { Button, Form, Input, Popconfirm, Select, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { PermissionGuard } from '../../../components/permission-guard';
import { errorMessage, translateCode } from '../../../lib/errors';
import { useApp } from '../../../lib/use-app';
import { usePipedriveWebhookMutations, usePipedriveWebhooks } from '../queries';
import { CrmDataCard } from './crm-data-card';
import { RowList } from './row-list';

const ACTIONS = ['*', 'create', 'change', 'delete'] as const;
const OBJECTS = ['*', 'deal', 'lead', 'person', 'organization', 'activity', 'note'] as const;
/** The locale word of Pipedrive's wildcard and its other values. */
const ACTION_KEYS = { '*': 'any', create: 'create', change: 'change', delete: 'delete' } as const;
const OBJECT_KEYS = {
  '*': 'any',
  deal: 'deal',
  lead: 'lead',
  person: 'person',
  organization: 'organization',
  activity: 'activity',
  note: 'note',
} as const;

interface Values {
  url: string;
  action: (typeof ACTIONS)[number];
  object: (typeof OBJECTS)[number];
  name?: string;
}

/** Webhooks registered in the Pipedrive company: what Pipedrive calls when something changes there. */
export function PipedriveWebhooksCard({ integration }: { integration: Integration }) {
  const { t } = useTranslation('crm');
  const { t: tc } = useTranslation('common');
  const { message } = useApp();
  const [form] = Form.useForm<Values>();
  const webhooks = usePipedriveWebhooks(integration);
  const { create, remove } = usePipedriveWebhookMutations(integration._id);

  const onCreate = async (v: Values) => {
    try {
      await create.mutateAsync({
        url: v.url.trim(),
        event: `${v.action}.${v.object}`,
        name: v.name?.trim() || undefined,
      });
      form.resetFields();
      void message.success(t('ui.saved_success'));
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };
  const onDelete = async (hook: PipedriveWebhook) => {
    try {
      await remove.mutateAsync(hook.id);
      void message.success(t('ui.deleted_success'));
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };

  return (
    <CrmDataCard integration={integration} title={t('webhooks.title')} queries={[webhooks]}>
      <Typography.Paragraph type="secondary" className="lr-hint">
        {t('webhooks.hint')}
      </Typography.Paragraph>
      <RowList
        empty={t('webhooks.empty')}
        items={(webhooks.data ?? []).map((hook) => ({
          key: hook.id,
          testId: 'pipedrive-webhook',
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
                title={t('webhooks.deleteConfirm')}
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
                  loading={remove.isPending && remove.variables === hook.id}
                />
              </Popconfirm>
            </PermissionGuard>
          ),
        }))}
      />
      <Typography.Title level={5}>{t('webhooks.add')}</Typography.Title>
      <Form<Values>
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={onCreate}
        initialValues={{ action: '*', object: 'deal' }}
      >
        <Form.Item
          name="url"
          label={t('webhooks.url')}
          rules={[
            { required: true, whitespace: true, message: translateCode('REQUIRED') },
            {
              validator: async (_r, v: string | undefined) =>
                v?.trim() && !ZPipedriveWebhookBody.shape.url.safeParse(v.trim()).success
                  ? Promise.reject(new Error(t('webhooks.badUrl')))
                  : undefined,
            },
          ]}
        >
          <Input placeholder="https://example.com/pipedrive" inputMode="url" className="lr-mono" />
        </Form.Item>
        <div className="lr-crm-pair">
          <Form.Item name="action" label={t('webhooks.action')} className="lr-grow">
            <Select options={ACTIONS.map((a) => ({ value: a, label: t(`webhooks.actions.${ACTION_KEYS[a]}`) }))} />
          </Form.Item>
          <Form.Item name="object" label={t('webhooks.object')} className="lr-grow">
            <Select options={OBJECTS.map((o) => ({ value: o, label: t(`webhooks.objects.${OBJECT_KEYS[o]}`) }))} />
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
    </CrmDataCard>
  );
}
