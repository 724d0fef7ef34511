import { PlusOutlined } from '@ant-design/icons';
import type { Plan } from '@leadrelay/shared';
import { Button, Card, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/errors';
import { useIsMobile } from '../../../lib/use-is-mobile';
import { PlanFormModal } from '../components/plan-form-modal';
import { TariffsTable } from '../components/tariffs-table';
import {
  useCreatePlanMutation,
  useDeletePlanMutation,
  usePlansQuery,
  useTogglePlanMutation,
  useUpdatePlanMutation,
} from '../queries';
import '../components/plans.css';
import '../../../components/hooks/hooks.css';
import { useApp } from '../../../lib/use-app';

/** /admin/super/tariffs (owner): every plan; create, edit, switch off and delete. */
export function TariffsPage() {
  const { t } = useTranslation('plans');
  const { message } = useApp();
  const mobile = useIsMobile();
  const plans = usePlansQuery();
  const create = useCreatePlanMutation();
  const update = useUpdatePlanMutation();
  const toggle = useTogglePlanMutation();
  const remove = useDeletePlanMutation();
  // undefined: closed; null: a new plan; a plan: editing it.
  const [editing, setEditing] = useState<Plan | null>();
  const [toggling, setToggling] = useState<string[]>([]);

  const onToggle = async (plan: Plan) => {
    setToggling((ids) => [...ids, plan._id]);
    try {
      const result = await toggle.mutateAsync(plan._id);
      void message.success(result.active ? t('tariffs.messages.activated') : t('tariffs.messages.deactivated'));
    } catch (err) {
      void message.error(errorMessage(err));
    } finally {
      setToggling((ids) => ids.filter((id) => id !== plan._id));
    }
  };

  const onDelete = async (plan: Plan) => {
    try {
      await remove.mutateAsync(plan._id);
      void message.success(t('tariffs.messages.deleted'));
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };

  const table = (
    <TariffsTable
      plans={plans.data ?? []}
      loading={plans.isPending}
      mobile={mobile}
      toggling={toggling}
      onToggle={(p) => void onToggle(p)}
      onEdit={setEditing}
      onDelete={onDelete}
    />
  );

  return (
    <div className="lr-page">
      <div className="lr-page-head">
        <Typography.Title level={2} className="lr-page-title">
          {t('tariffs.title')}
        </Typography.Title>
        <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => setEditing(null)}>
          {t('tariffs.create')}
        </Button>
      </div>
      <Typography.Paragraph type="secondary">{t('tariffs.subtitle')}</Typography.Paragraph>
      {plans.isError && (
        <Typography.Paragraph type="danger" role="alert">
          {errorMessage(plans.error)}
        </Typography.Paragraph>
      )}
      {/* On a phone the plans are cards of their own, not cards in a card. */}
      {mobile ? table : <Card>{table}</Card>}
      {editing !== undefined && (
        <PlanFormModal
          plan={editing ?? undefined}
          onClose={() => setEditing(undefined)}
          onSubmit={async (body) => {
            if (editing) {
              const { active: _active, ...patch } = body;
              await update.mutateAsync({ id: editing._id, body: patch });
              void message.success(t('tariffs.messages.saved'));
            } else {
              await create.mutateAsync(body);
              void message.success(t('tariffs.messages.created'));
            }
          }}
        />
      )}
    </div>
  );
}
