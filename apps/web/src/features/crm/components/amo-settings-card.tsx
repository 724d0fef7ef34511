import {
  AMOCRM_CONTACT_POLICIES,
  type AmoPipeline,
  type AmoSettings,
  type AmoUser,
  type Integration,
  ZAmoSettings,
} from '@leadrelay/shared';
import { Button, Form, Input, Radio, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { PermissionGuard } from '../../../components/permission-guard';
import { zodRule } from '../../../lib/form';
import { useAmoPipelines, useAmoUsers } from '../queries';
import { CrmDataCard } from './crm-data-card';
import { useSaveSettingsPart } from './settings-save';

interface Values {
  pipelineId?: number;
  statusId?: number;
  contactPolicy: AmoSettings['contactPolicy'];
  leadName?: string;
  tags?: string[];
  note: boolean;
  responsibleUserId?: number;
}

/** Where a lead lands in amoCRM: pipeline and status, contact policy, name, tags, note, default user. */
export function AmoSettingsCard({ integration }: { integration: Integration }) {
  const { t } = useTranslation('crm');
  const pipelines = useAmoPipelines(integration);
  const users = useAmoUsers(integration);
  return (
    <CrmDataCard integration={integration} title={t('settings.title')} queries={[pipelines, users]}>
      <AmoSettingsForm integration={integration} pipelines={pipelines.data ?? []} users={users.data ?? []} />
    </CrmDataCard>
  );
}

function AmoSettingsForm({
  integration,
  pipelines,
  users,
}: {
  integration: Integration;
  pipelines: AmoPipeline[];
  users: AmoUser[];
}) {
  const { t } = useTranslation('crm');
  const [form] = Form.useForm<Values>();
  const save = useSaveSettingsPart(integration);
  const stored = ZAmoSettings.partial().safeParse(integration.settings);
  const s: Partial<AmoSettings> = stored.success ? stored.data : {};
  const pipelineId = Form.useWatch('pipelineId', form);
  const statuses = pipelines.find((p) => p.id === pipelineId)?.statuses ?? [];
  const main = pipelines.find((p) => p.isMain);

  const onFinish = (v: Values) =>
    save.run({
      pipelineId: v.pipelineId,
      statusId: v.pipelineId ? v.statusId : undefined,
      contactPolicy: v.contactPolicy,
      leadName: v.leadName?.trim(),
      tags: (v.tags ?? []).map((tag) => tag.trim()).filter(Boolean),
      note: v.note,
      responsibleUserId: v.responsibleUserId,
    });

  return (
    <Form<Values>
      form={form}
      layout="vertical"
      requiredMark={false}
      onFinish={onFinish}
      initialValues={{
        pipelineId: s.pipelineId,
        statusId: s.statusId,
        contactPolicy: s.contactPolicy ?? 'attach',
        leadName: s.leadName,
        tags: s.tags ?? [],
        note: s.note ?? true,
        responsibleUserId: s.responsibleUserId,
      }}
    >
      <div className="lr-crm-pair">
        <Form.Item name="pipelineId" label={t('settings.pipeline')} className="lr-grow">
          <Select
            allowClear
            placeholder={main ? t('settings.mainPipeline', { name: main.name }) : t('settings.defaultPipeline')}
            options={pipelines.map((p) => ({ value: p.id, label: p.name }))}
            onChange={() => form.setFieldValue('statusId', undefined)}
          />
        </Form.Item>
        <Form.Item
          name="statusId"
          label={t('settings.status')}
          className="lr-grow"
          extra={pipelineId ? undefined : t('settings.statusNeedsPipeline')}
        >
          <Select
            allowClear
            disabled={!pipelineId}
            placeholder={t('settings.firstStatus')}
            options={statuses.map((st) => ({ value: st.id, label: st.name }))}
          />
        </Form.Item>
      </div>
      <Form.Item name="contactPolicy" label={t('settings.contactPolicy')}>
        <Radio.Group
          className="lr-crm-radios"
          options={AMOCRM_CONTACT_POLICIES.map((p) => ({ value: p, label: t(`settings.contactPolicies.${p}`) }))}
        />
      </Form.Item>
      <Form.Item
        name="leadName"
        label={t('settings.leadName')}
        extra={t('settings.templateHint')}
        rules={[zodRule(ZAmoSettings.shape.leadName)]}
      >
        <Input placeholder={t('settings.leadNamePlaceholder')} maxLength={250} />
      </Form.Item>
      <Form.Item name="tags" label={t('settings.tags')} extra={t('settings.tagsHint')}>
        <Select mode="tags" maxCount={20} tokenSeparators={[',']} open={false} suffixIcon={null} />
      </Form.Item>
      <Form.Item name="responsibleUserId" label={t('settings.responsible')} extra={t('settings.responsibleHint')}>
        <Select
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          placeholder={t('settings.responsibleNone')}
          options={users.map((u) => ({ value: u.id, label: u.name }))}
        />
      </Form.Item>
      <Form.Item name="note" label={t('settings.note')} valuePropName="checked" extra={t('settings.noteHint')}>
        <Switch />
      </Form.Item>
      <div className="lr-actions">
        <PermissionGuard>
          <Button type="primary" htmlType="submit" loading={save.isPending}>
            {t('save')}
          </Button>
        </PermissionGuard>
      </div>
    </Form>
  );
}
