import type { Integration } from '@leadrelay/shared';
import { Button, Form, type FormInstance, Select, Switch } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PermissionGuard } from '../../../components/permission-guard';
import { useFormGuard } from '../../../lib/unsaved-changes';
import { useSaveSettingsPart } from './settings-save';

/** A card's save button, for those who may change settings: submits its form, or calls onSave. */
export function SaveFooter({
  isPending,
  onSave,
  className = 'lr-actions',
}: {
  isPending: boolean;
  onSave?: () => void;
  className?: string;
}) {
  const { t } = useTranslation('crm');
  return (
    <div className={className}>
      <PermissionGuard>
        <Button type="primary" htmlType={onSave ? 'button' : 'submit'} onClick={onSave} loading={isPending}>
          {t('save')}
        </Button>
      </PermissionGuard>
    </div>
  );
}

/** A settings card's form: saves its part of the integration's settings on submit, with a save button below. */
export function SettingsForm<V extends object>({
  integration,
  form,
  initialValues,
  toSettings,
  children,
}: {
  integration: Integration;
  form: FormInstance<V>;
  initialValues: Partial<V>;
  /** The form's values → this card's part of the settings. */
  toSettings: (values: V) => Record<string, unknown>;
  children: ReactNode;
}) {
  const save = useSaveSettingsPart(integration);
  const guard = useFormGuard();
  return (
    <Form<V>
      form={form}
      layout="vertical"
      requiredMark={false}
      onFinish={async (values) => {
        if (await save.run(toSettings(values))) guard.saved();
      }}
      onValuesChange={guard.onValuesChange}
      initialValues={initialValues}
    >
      {children}
      <SaveFooter isPending={save.isPending} />
    </Form>
  );
}

/** Pipeline, then a stage of it (amoCRM calls it a status); a new pipeline clears the stage. */
export function PipelineStagePair({
  pipelines,
  stagesOf,
  stageName,
  stageLabel,
  pipelinePlaceholder,
  stagePlaceholder,
  pipelineLabel,
  needsPipelineHint,
}: {
  pipelines: { id: number; name: string }[];
  stagesOf: (pipelineId: number) => { id: number; name: string }[];
  stageName: 'statusId' | 'stageId';
  stageLabel: string;
  pipelinePlaceholder: string;
  stagePlaceholder: string;
  /** Default "Pipeline" (Uspacy says funnel). */
  pipelineLabel?: string;
  /** Under the disabled stage picker; default "Choose a pipeline to pick a status". */
  needsPipelineHint?: string;
}) {
  const { t } = useTranslation('crm');
  const form = Form.useFormInstance();
  const pipelineId = Form.useWatch<number | undefined>('pipelineId', form);
  const stages = pipelineId ? stagesOf(pipelineId) : [];
  return (
    <div className="lr-crm-pair">
      <Form.Item name="pipelineId" label={pipelineLabel ?? t('settings.pipeline')} className="lr-grow">
        <Select
          allowClear
          placeholder={pipelinePlaceholder}
          options={pipelines.map((p) => ({ value: p.id, label: p.name }))}
          onChange={() => form.setFieldValue(stageName, undefined)}
        />
      </Form.Item>
      <Form.Item
        name={stageName}
        label={stageLabel}
        className="lr-grow"
        extra={pipelineId ? undefined : (needsPipelineHint ?? t('settings.statusNeedsPipeline'))}
      >
        <Select
          allowClear
          disabled={!pipelineId}
          placeholder={stagePlaceholder}
          options={stages.map((st) => ({ value: st.id, label: st.name }))}
        />
      </Form.Item>
    </div>
  );
}

/** Who a lead is assigned to when distribution names nobody: one of the CRM's users. */
export function CrmUserSelect({
  name,
  label,
  users,
}: {
  name: string;
  label: string;
  users: { id: number; name: string }[];
}) {
  const { t } = useTranslation('crm');
  return (
    <Form.Item name={name} label={label} extra={t('settings.responsibleHint')}>
      <Select
        allowClear
        showSearch={{ optionFilterProp: 'label' }}
        placeholder={t('settings.responsibleNone')}
        options={users.map((u) => ({ value: u.id, label: u.name }))}
      />
    </Form.Item>
  );
}

/** Whether the lead's details also go in as a note. */
export function NoteSwitch() {
  const { t } = useTranslation('crm');
  return (
    <Form.Item name="note" label={t('settings.note')} valuePropName="checked" extra={t('settings.noteHint')}>
      <Switch />
    </Form.Item>
  );
}
