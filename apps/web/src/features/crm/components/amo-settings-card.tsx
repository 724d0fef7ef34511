import {
  AMOCRM_CONTACT_POLICIES,
  type AmoPipeline,
  type AmoSettings,
  type AmoUser,
  type Integration,
  ZAmoSettings,
} from '@leadrelay/shared';
import { Form, Input, Radio, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { zodRule } from '../../../lib/form';
import { useAmoPipelines, useAmoUsers } from '../queries';
import { CrmDataCard } from './crm-data-card';
import { CrmUserSelect, NoteSwitch, PipelineStagePair, SettingsForm } from './settings-form-items';

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
  const stored = ZAmoSettings.partial().safeParse(integration.settings);
  const s: Partial<AmoSettings> = stored.success ? stored.data : {};
  const main = pipelines.find((p) => p.isMain);

  const toSettings = (v: Values) => ({
    pipelineId: v.pipelineId,
    statusId: v.pipelineId ? v.statusId : undefined,
    contactPolicy: v.contactPolicy,
    leadName: v.leadName?.trim(),
    tags: (v.tags ?? []).map((tag) => tag.trim()).filter(Boolean),
    note: v.note,
    responsibleUserId: v.responsibleUserId,
  });

  return (
    <SettingsForm<Values>
      integration={integration}
      form={form}
      toSettings={toSettings}
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
      <PipelineStagePair
        pipelines={pipelines}
        stagesOf={(id) => pipelines.find((p) => p.id === id)?.statuses ?? []}
        stageName="statusId"
        stageLabel={t('settings.status')}
        pipelinePlaceholder={main ? t('settings.mainPipeline', { name: main.name }) : t('settings.defaultPipeline')}
        stagePlaceholder={t('settings.firstStatus')}
      />
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
      <CrmUserSelect name="responsibleUserId" label={t('settings.responsible')} users={users} />
      <NoteSwitch />
    </SettingsForm>
  );
}
