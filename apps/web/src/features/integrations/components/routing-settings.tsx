import {
  type CollectionItem,
  DEFAULT_ROUTING_POLICY,
  ESCALATE_AFTER_MAX_MINUTES,
  type Integration,
  type RoutingPolicy,
  ZRoutingPolicy,
} from '@leadrelay/shared';
import { Button, Form, InputNumber, Radio, Select, Space, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorMessage, translateCode } from '../../../lib/errors';
import { HttpError } from '../../../lib/http';
import { useUpdateIntegrationMutation } from '../../../lib/integrations/queries';
import { useApp } from '../../../lib/use-app';

interface Values {
  whenNobody: RoutingPolicy['whenNobody'];
  fallbackItemId?: string;
  escalate: boolean;
  minutes: number;
}

const DEFAULT_MINUTES = 15;

function policyOf(integration: Integration): RoutingPolicy {
  const parsed = ZRoutingPolicy.safeParse(integration.options.routing);
  return parsed.success ? parsed.data : DEFAULT_ROUTING_POLICY;
}

/**
 * What happens when nobody of the distribution is on duty (wait for the first who comes on, or the
 * fallback person; never everyone) and after how many minutes of working time a lead nobody took
 * passes to the next manager (issue 19). Stored in the integration's options as `routing`.
 */
export function RoutingSettings({
  integration,
  items,
}: {
  integration: Integration;
  items: readonly CollectionItem[];
}) {
  const { t } = useTranslation('integrations');
  const { t: tc } = useTranslation('common');
  const { message } = useApp();
  const update = useUpdateIntegrationMutation();
  const [form] = Form.useForm<Values>();
  const policy = policyOf(integration);
  const whenNobody = Form.useWatch('whenNobody', form) ?? policy.whenNobody;
  const escalate = Form.useWatch('escalate', form) ?? policy.escalateAfterMinutes !== null;

  const onFinish = async (values: Values) => {
    const routing: RoutingPolicy = {
      whenNobody: values.whenNobody,
      ...(values.whenNobody === 'fallback' ? { fallbackItemId: values.fallbackItemId ?? null } : {}),
      escalateAfterMinutes: values.escalate ? values.minutes : null,
    };
    try {
      await update.mutateAsync({ id: integration._id, body: { options: { ...integration.options, routing } } });
      void message.success(tc('saved'));
    } catch (err) {
      const fields =
        err instanceof HttpError
          ? err.errors
              .filter((e) => e.field.startsWith('options.routing.'))
              .map((e) => ({
                name:
                  e.field === 'options.routing.escalateAfterMinutes'
                    ? 'minutes'
                    : e.field.slice('options.routing.'.length),
                errors: [translateCode(e.code)],
              }))
          : [];
      if (fields.length) form.setFields(fields as never);
      else void message.error(errorMessage(err));
    }
  };

  return (
    <Form
      form={form}
      layout="vertical"
      className="lr-routing"
      initialValues={{
        whenNobody: policy.whenNobody,
        fallbackItemId: policy.fallbackItemId ?? undefined,
        escalate: policy.escalateAfterMinutes !== null,
        minutes: policy.escalateAfterMinutes ?? DEFAULT_MINUTES,
      }}
      onFinish={onFinish}
    >
      <Typography.Title level={5}>{t('routing.title')}</Typography.Title>
      <Form.Item name="whenNobody" label={t('routing.whenNobody')}>
        <Radio.Group>
          <Space direction="vertical">
            <Radio value="wait">{t('routing.wait')}</Radio>
            <Radio value="fallback">{t('routing.fallback')}</Radio>
          </Space>
        </Radio.Group>
      </Form.Item>
      {whenNobody === 'fallback' && (
        <Form.Item
          name="fallbackItemId"
          label={t('routing.fallbackPerson')}
          rules={[{ required: true, message: translateCode('FALLBACK_ITEM_REQUIRED') }]}
        >
          <Select
            aria-label={t('routing.fallbackPerson')}
            placeholder={t('routing.fallbackPlaceholder')}
            options={items.map((i) => ({ value: i.id, label: i.name }))}
          />
        </Form.Item>
      )}
      <Form.Item
        name="escalate"
        valuePropName="checked"
        label={t('routing.escalate')}
        extra={t('routing.escalateHint')}
      >
        <Switch aria-label={t('routing.escalate')} />
      </Form.Item>
      {escalate && (
        <Form.Item
          name="minutes"
          label={t('routing.minutes')}
          rules={[{ required: true, message: translateCode('REQUIRED') }]}
        >
          <InputNumber
            min={1}
            max={ESCALATE_AFTER_MAX_MINUTES}
            precision={0}
            aria-label={t('routing.minutes')}
            addonAfter={t('routing.minutesUnit')}
          />
        </Form.Item>
      )}
      <Button type="primary" htmlType="submit" loading={update.isPending}>
        {tc('save')}
      </Button>
    </Form>
  );
}
