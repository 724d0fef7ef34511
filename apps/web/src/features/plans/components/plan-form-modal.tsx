import { type Plan, type PlanBody, ZPlanBody, ZPlanLimits, ZPlanTitle } from '@leadrelay/shared';
import { Checkbox, Form, type FormRule, Input, InputNumber, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage, translateCode } from '../../../lib/errors';
import { applyServerErrors } from '../../../lib/form';
import { useApp } from '../../../lib/use-app';
import { LIMIT_KEYS, type LimitKey } from './plan-texts';

interface Values {
  title: { uk: string; en: string };
  monthlyAmount: number | null;
  annualAmount: number | null;
  limits: Record<LimitKey, number | null>;
  unlimited: Record<LimitKey, boolean>;
}

interface Parser {
  safeParse(v: unknown): { success: true } | { success: false; error: { issues: { message: string }[] } };
}

/**
 * One field of the shared schema, as the server checks it; an empty box is "required", and the
 * schema's generic VALIDATION_ERROR is told as the field's own rule (`rule`).
 */
function schemaRule(schema: Parser, rule?: string): FormRule {
  return {
    validator: async (_r, value) => {
      if (value === null || value === undefined || value === '') throw new Error(translateCode('REQUIRED'));
      const result = schema.safeParse(value);
      if (result.success) return;
      const code = result.error.issues[0]?.message;
      throw new Error(code === 'VALIDATION_ERROR' && rule ? rule : translateCode(code));
    },
  };
}

function toValues(plan?: Plan): Values {
  const limits = plan?.limits ?? { leadsPerMonth: null, integrations: null, destinationsPerSource: null };
  return {
    title: { uk: plan?.title.uk ?? '', en: plan?.title.en ?? '' },
    monthlyAmount: plan?.monthlyAmount ?? null,
    annualAmount: plan?.annualAmount ?? null,
    limits: { ...limits },
    unlimited: {
      leadsPerMonth: plan ? limits.leadsPerMonth === null : false,
      integrations: plan ? limits.integrations === null : false,
      destinationsPerSource: plan ? limits.destinationsPerSource === null : false,
    },
  };
}

function toBody(v: Values): PlanBody {
  const limit = (k: LimitKey) => (v.unlimited[k] ? null : v.limits[k]);
  return {
    title: { uk: v.title.uk.trim(), en: v.title.en.trim() },
    monthlyAmount: v.monthlyAmount as number,
    annualAmount: v.annualAmount as number,
    limits: {
      leadsPerMonth: limit('leadsPerMonth'),
      integrations: limit('integrations'),
      destinationsPerSource: limit('destinationsPerSource'),
    },
  };
}

interface Props {
  /** Absent: a new plan. */
  plan?: Plan;
  onClose: () => void;
  /** Resolves when saved (the modal then closes); a rejection is shown in the form. */
  onSubmit: (body: PlanBody) => Promise<unknown>;
}

/** Create or edit a plan; every field is checked with the server's own schema (ZPlanBody). */
export function PlanFormModal({ plan, onClose, onSubmit }: Props) {
  const { t } = useTranslation('plans');
  const { t: tc } = useTranslation('common');
  const { message } = useApp();
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  const unlimited = Form.useWatch('unlimited', form);

  const onFinish = async (values: Values) => {
    const body = toBody(values);
    // The whole body once more, so nothing the server would refuse is sent.
    const parsed = ZPlanBody.safeParse(body);
    if (!parsed.success) {
      void message.error(translateCode(parsed.error.issues[0]?.message));
      return;
    }
    setBusy(true);
    try {
      await onSubmit(parsed.data);
      onClose();
    } catch (err) {
      if (!applyServerErrors(form, err)) void message.error(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      title={plan ? t('tariffs.editTitle') : t('tariffs.createTitle')}
      okText={plan ? t('tariffs.save') : t('tariffs.createOk')}
      cancelText={tc('cancel')}
      okButtonProps={{ loading: busy, htmlType: 'submit', form: 'lr-plan-form' }}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} id="lr-plan-form" layout="vertical" initialValues={toValues(plan)} onFinish={onFinish}>
        <Form.Item name={['title', 'uk']} label={t('tariffs.fields.titleUk')} rules={[schemaRule(ZPlanTitle.shape.uk)]}>
          <Input maxLength={100} autoFocus />
        </Form.Item>
        <Form.Item name={['title', 'en']} label={t('tariffs.fields.titleEn')} rules={[schemaRule(ZPlanTitle.shape.en)]}>
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item
          name="monthlyAmount"
          label={t('tariffs.fields.monthlyAmount')}
          extra={t('tariffs.fields.amountHint')}
          rules={[schemaRule(ZPlanBody.shape.monthlyAmount, t('tariffs.fields.amountHint'))]}
        >
          <InputNumber className="lr-fill-width" step={1} />
        </Form.Item>
        <Form.Item
          name="annualAmount"
          label={t('tariffs.fields.annualAmount')}
          rules={[schemaRule(ZPlanBody.shape.annualAmount, t('tariffs.fields.amountHint'))]}
        >
          <InputNumber className="lr-fill-width" step={1} />
        </Form.Item>
        <Typography.Title level={5} className="lr-plan-form-section">
          {t('tariffs.fields.limits')}
        </Typography.Title>
        {LIMIT_KEYS.map((key) => (
          <Form.Item key={key} label={t(`tariffs.fields.${key}`)} htmlFor={`lr-plan-limit-${key}`}>
            <div className="lr-plan-form-limit">
              <Form.Item
                noStyle
                name={['limits', key]}
                dependencies={[['unlimited', key]]}
                rules={unlimited?.[key] ? [] : [schemaRule(ZPlanLimits.shape[key], t('tariffs.fields.limitHint'))]}
              >
                <InputNumber
                  id={`lr-plan-limit-${key}`}
                  className="lr-fill-width"
                  step={1}
                  disabled={Boolean(unlimited?.[key])}
                />
              </Form.Item>
              <Form.Item noStyle name={['unlimited', key]} valuePropName="checked">
                <Checkbox
                  onChange={(e) => {
                    if (e.target.checked) form.setFields([{ name: ['limits', key], value: null, errors: [] }]);
                  }}
                >
                  {t('tariffs.fields.unlimited')}
                </Checkbox>
              </Form.Item>
            </div>
          </Form.Item>
        ))}
      </Form>
    </Modal>
  );
}
