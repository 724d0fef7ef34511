import {
  type Integration,
  PIPEDRIVE_TARGETS,
  type PipedriveActivityType,
  type PipedrivePipeline,
  type PipedriveSettings,
  ZPipedriveSettings,
} from '@leadrelay/shared';
import { Form, Input, InputNumber, Radio, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CrmUser } from '../api';
import { usePipedriveActivityTypes, usePipedrivePipelines, usePipedriveUsers } from '../queries';
import { CrmDataCard } from './crm-data-card';
import { CrmUserSelect, NoteSwitch, PipelineStagePair, SettingsForm } from './settings-form-items';

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
  const stored = ZPipedriveSettings.partial().safeParse(integration.settings);
  const s: Partial<PipedriveSettings> = stored.success ? stored.data : {};
  const target = Form.useWatch('target', form) ?? s.target ?? 'lead';
  const hasActivity = Form.useWatch('hasActivity', form);
  const stagesOf = (id: number) =>
    [...(pipelines.find((p) => p.id === id)?.stages ?? [])].sort((a, b) => a.order_nr - b.order_nr);

  const toSettings = (v: Values) => {
    const isDeal = v.target === 'deal';
    return {
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
    };
  };

  return (
    <SettingsForm<Values>
      integration={integration}
      form={form}
      toSettings={toSettings}
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
        <PipelineStagePair
          pipelines={pipelines}
          stagesOf={stagesOf}
          stageName="stageId"
          stageLabel={t('settings.stage')}
          pipelinePlaceholder={t('settings.defaultPipeline')}
          stagePlaceholder={t('settings.firstStage')}
        />
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
      <CrmUserSelect name="ownerId" label={t('settings.owner')} users={users} />
      <NoteSwitch />
    </SettingsForm>
  );
}
