import {
  type Integration,
  PIPEDRIVE_TARGETS,
  type PipedriveActivityType,
  type PipedrivePipeline,
  type PipedriveSettings,
  ZPipedriveSettings,
} from '@leadrelay/shared';
import { Button, Form, Input, InputNumber, Radio, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { PermissionGuard } from '../../../components/permission-guard';
import type { CrmUser } from '../api';
import { usePipedriveActivityTypes, usePipedrivePipelines, usePipedriveUsers } from '../queries';
import { CrmDataCard } from './crm-data-card';
import { useSaveSettingsPart } from './settings-save';

interface Values {
  target: PipedriveSettings['target'];
  pipelineId?: number;
  stageId?: number;
  organization: boolean;
  title?: string;
  hasActivity: boolean;
  activityType?: string;
  activitySubject?: string;
  dueInMinutes?: number;
  note: boolean;
  ownerId?: number;
}

interface Data {
  pipelines: PipedrivePipeline[];
  activityTypes: PipedriveActivityType[];
  users: CrmUser[];
}

/** What Pipedrive gets: a lead or a deal (pipeline and stage), organization, title, follow-up activity, owner. */
export function PipedriveSettingsCard({ integration }: { integration: Integration }) {
  const { t } = useTranslation('crm');
  const pipelines = usePipedrivePipelines(integration);
  const activityTypes = usePipedriveActivityTypes(integration);
  const users = usePipedriveUsers(integration);
  return (
    <CrmDataCard integration={integration} title={t('settings.title')} queries={[pipelines, activityTypes, users]}>
      <PipedriveSettingsForm
        integration={integration}
        pipelines={pipelines.data ?? []}
        activityTypes={activityTypes.data ?? []}
        users={users.data ?? []}
      />
    </CrmDataCard>
  );
}

function PipedriveSettingsForm({ integration, pipelines, activityTypes, users }: Data & { integration: Integration }) {
  const { t } = useTranslation('crm');
  const [form] = Form.useForm<Values>();
  const save = useSaveSettingsPart(integration);
  const stored = ZPipedriveSettings.partial().safeParse(integration.settings);
  const s: Partial<PipedriveSettings> = stored.success ? stored.data : {};
  const target = Form.useWatch('target', form) ?? s.target ?? 'lead';
  const pipelineId = Form.useWatch('pipelineId', form);
  const hasActivity = Form.useWatch('hasActivity', form);
  const stages = [...(pipelines.find((p) => p.id === pipelineId)?.stages ?? [])].sort(
    (a, b) => a.order_nr - b.order_nr,
  );

  const onFinish = (v: Values) => {
    const isDeal = v.target === 'deal';
    return save.run({
      target: v.target,
      pipelineId: isDeal ? v.pipelineId : undefined,
      stageId: isDeal && v.pipelineId ? v.stageId : undefined,
      organization: v.organization,
      title: v.title?.trim(),
      activity:
        v.hasActivity && v.activityType
          ? {
              type: v.activityType,
              subject: v.activitySubject?.trim() || undefined,
              dueInMinutes: v.dueInMinutes ?? 60,
            }
          : null,
      note: v.note,
      ownerId: v.ownerId,
    });
  };

  return (
    <Form<Values>
      form={form}
      layout="vertical"
      requiredMark={false}
      onFinish={onFinish}
      initialValues={{
        target: s.target ?? 'lead',
        pipelineId: s.pipelineId,
        stageId: s.stageId,
        organization: s.organization ?? false,
        title: s.title,
        hasActivity: Boolean(s.activity),
        activityType: s.activity?.type,
        activitySubject: s.activity?.subject,
        dueInMinutes: s.activity?.dueInMinutes ?? 60,
        note: s.note ?? true,
        ownerId: s.ownerId,
      }}
    >
      <Form.Item name="target" label={t('settings.target')}>
        <Radio.Group
          className="lr-crm-radios"
          options={PIPEDRIVE_TARGETS.map((v) => ({ value: v, label: t(`settings.targets.${v}`) }))}
        />
      </Form.Item>
      {target === 'deal' && (
        <div className="lr-crm-pair">
          <Form.Item name="pipelineId" label={t('settings.pipeline')} className="lr-grow">
            <Select
              allowClear
              placeholder={t('settings.defaultPipeline')}
              options={pipelines.map((p) => ({ value: p.id, label: p.name }))}
              onChange={() => form.setFieldValue('stageId', undefined)}
            />
          </Form.Item>
          <Form.Item
            name="stageId"
            label={t('settings.stage')}
            className="lr-grow"
            extra={pipelineId ? undefined : t('settings.statusNeedsPipeline')}
          >
            <Select
              allowClear
              disabled={!pipelineId}
              placeholder={t('settings.firstStage')}
              options={stages.map((st) => ({ value: st.id, label: st.name }))}
            />
          </Form.Item>
        </div>
      )}
      <Form.Item name="title" label={t('settings.dealTitle')} extra={t('settings.templateHint')}>
        <Input placeholder={t('settings.leadNamePlaceholder')} maxLength={250} />
      </Form.Item>
      <Form.Item
        name="organization"
        label={t('settings.organization')}
        valuePropName="checked"
        extra={t('settings.organizationHint')}
      >
        <Switch />
      </Form.Item>
      <Form.Item
        name="hasActivity"
        label={t('settings.activity')}
        valuePropName="checked"
        extra={t('settings.activityHint')}
      >
        <Switch />
      </Form.Item>
      {hasActivity && (
        <div className="lr-crm-pair">
          <Form.Item
            name="activityType"
            label={t('settings.activityType')}
            className="lr-grow"
            rules={[{ required: true, message: t('settings.activityTypeRequired') }]}
          >
            <Select options={activityTypes.map((a) => ({ value: a.key, label: a.name }))} />
          </Form.Item>
          <Form.Item name="activitySubject" label={t('settings.activitySubject')} className="lr-grow">
            <Input maxLength={250} />
          </Form.Item>
          <Form.Item name="dueInMinutes" label={t('settings.dueInMinutes')} className="lr-crm-narrow">
            <InputNumber min={0} max={60 * 24 * 30} precision={0} className="lr-full" />
          </Form.Item>
        </div>
      )}
      <Form.Item name="ownerId" label={t('settings.owner')} extra={t('settings.responsibleHint')}>
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
