import {
  type Integration,
  USPACY_TARGETS,
  type UspacyFunnel,
  type UspacySettings,
  type UspacyTarget,
  ZUspacySettings,
} from '@leadrelay/shared';
import { Form, Input, Radio } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CrmUser } from '../api';
import { useUspacyFunnels, useUspacyUsers } from '../queries';
import { CrmDataCard } from './crm-data-card';
import { CrmUserSelect, NoteSwitch, PipelineStagePair, SettingsForm } from './settings-form-items';

interface Values {
  target: UspacyTarget;
  /** The funnel (the shared pipeline picker's field). */
  pipelineId?: number;
  stageId?: number;
  title?: string;
  note: boolean;
  ownerId?: number;
}

interface Data {
  funnels: Record<UspacyTarget, UspacyFunnel[]>;
  users: CrmUser[];
}

/** Where Uspacy gets the lead: a lead or a deal, its funnel and stage, its title, the comment, the owner. */
export function UspacySettingsCard({ integration }: { integration: Integration }) {
  const { t } = useTranslation('crm');
  const leadFunnels = useUspacyFunnels(integration, 'lead');
  const dealFunnels = useUspacyFunnels(integration, 'deal');
  const users = useUspacyUsers(integration);
  return (
    <CrmDataCard integration={integration} title={t('settings.title')} queries={[leadFunnels, dealFunnels, users]}>
      <UspacySettingsForm
        integration={integration}
        funnels={{ lead: leadFunnels.data ?? [], deal: dealFunnels.data ?? [] }}
        users={users.data ?? []}
      />
    </CrmDataCard>
  );
}

function UspacySettingsForm({ integration, funnels, users }: Data & { integration: Integration }) {
  const { t } = useTranslation('crm');
  const [form] = Form.useForm<Values>();
  const stored = ZUspacySettings.partial().safeParse(integration.settings);
  const s: Partial<UspacySettings> = stored.success ? stored.data : {};
  const target = Form.useWatch('target', form) ?? s.target ?? 'lead';
  const list = funnels[target];
  const byDefault = list.find((f) => f.isDefault);
  // A new record goes into a working stage: the closing ones (won, lost) are not offered.
  const stagesOf = (id: number) =>
    (list.find((f) => f.id === id)?.stages ?? [])
      .filter((st) => !st.isSystem)
      .sort((a, b) => a.sort - b.sort)
      .map((st) => ({ id: st.id, name: st.title }));

  const toSettings = (v: Values) => ({
    target: v.target,
    funnelId: v.pipelineId,
    stageId: v.pipelineId ? v.stageId : undefined,
    title: v.title?.trim(),
    note: v.note,
    ownerId: v.ownerId,
  });

  return (
    <SettingsForm<Values>
      integration={integration}
      form={form}
      toSettings={toSettings}
      initialValues={{
        target: s.target ?? 'lead',
        pipelineId: s.funnelId,
        stageId: s.stageId,
        title: s.title,
        note: s.note ?? true,
        ownerId: s.ownerId,
      }}
    >
      <Form.Item name="target" label={t('settings.target')}>
        <Radio.Group
          className="lr-crm-radios"
          options={USPACY_TARGETS.map((v) => ({ value: v, label: t(`uspacy.targets.${v}`) }))}
          // The funnels of leads and of deals are different lists.
          onChange={() => form.setFieldsValue({ pipelineId: undefined, stageId: undefined })}
        />
      </Form.Item>
      <PipelineStagePair
        pipelines={list.map((f) => ({ id: f.id, name: f.title }))}
        stagesOf={stagesOf}
        stageName="stageId"
        stageLabel={t('settings.stage')}
        pipelineLabel={t('uspacy.funnel')}
        pipelinePlaceholder={
          byDefault ? t('uspacy.defaultFunnel', { name: byDefault.title }) : t('uspacy.portalFunnel')
        }
        stagePlaceholder={t('uspacy.firstStage')}
        needsPipelineHint={t('uspacy.stageNeedsFunnel')}
      />
      <Form.Item name="title" label={t('settings.dealTitle')} extra={t('settings.templateHint')}>
        <Input placeholder={t('uspacy.titlePlaceholder')} maxLength={250} />
      </Form.Item>
      <CrmUserSelect name="ownerId" label={t('settings.responsible')} users={users} />
      <NoteSwitch />
    </SettingsForm>
  );
}
