import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  GA_DEFAULT_CLIENT_ID_FIELD,
  GA_DEFAULT_EVENT,
  GA_MAX_CUSTOM_PARAMS,
  type GaParamMapping,
  type GaSettings,
  gaNameIssue,
  type Integration,
  ZLeadPath,
} from '@leadrelay/shared';
import { Button, Card, Form, Input, InputNumber, Switch, Typography } from 'antd';
import type { Rule } from 'antd/es/form';
import { useTranslation } from 'react-i18next';
import { LeadPathInput } from '../../../components/integrations/lead-path-input';
import { PermissionGuard } from '../../../components/permission-guard';
import { errorMessage, translateCode } from '../../../lib/errors';
import { HttpError } from '../../../lib/http';
import { useConnectMutation } from '../../../lib/integrations/queries';
import { useFormGuard } from '../../../lib/unsaved-changes';
import { useApp } from '../../../lib/use-app';

interface Values {
  eventName: string;
  value?: number | null;
  valueField?: string;
  currency: string;
  currencyField?: string;
  clientIdField: string;
  userIdField?: string;
  utm: boolean;
  params: GaParamMapping[];
}

const nameRule = (kind: 'event' | 'param'): Rule => ({
  validator: async (_r, v?: string) => {
    const issue = v ? gaNameIssue(v.trim(), kind) : 'REQUIRED';
    if (issue) throw new Error(translateCode(issue));
  },
});
const pathRule = (required = false): Rule => ({
  validator: async (_r, v?: string) => {
    if (!v?.trim()) {
      if (required) throw new Error(translateCode('REQUIRED'));
      return;
    }
    if (!ZLeadPath.safeParse(v.trim()).success) throw new Error(translateCode('VALIDATION_ERROR'));
  },
});
const trimmed = (v?: string) => (v?.trim() ? v.trim() : undefined);

/** The event: its name, value and currency, where the client and user ids come from, parameters. */
export function GaEventCard({ integration }: { integration: Integration }) {
  const { t } = useTranslation('ga');
  const { t: tc } = useTranslation('common');
  const { message } = useApp();
  const [form] = Form.useForm<Values>();
  const guard = useFormGuard();
  const connect = useConnectMutation(integration._id);
  const saved = integration.settings as Partial<GaSettings>;

  const onFinish = async (v: Values) => {
    const settings = {
      ...saved,
      eventName: v.eventName.trim(),
      currency: v.currency.trim().toUpperCase(),
      clientIdField: v.clientIdField.trim(),
      utm: v.utm,
      params: (v.params ?? []).map((p) => ({ name: p.name.trim(), from: p.from.trim() })),
      value: typeof v.value === 'number' ? v.value : undefined,
      valueField: trimmed(v.valueField),
      currencyField: trimmed(v.currencyField),
      userIdField: trimmed(v.userIdField),
    };
    try {
      await connect.mutateAsync({ settings: JSON.parse(JSON.stringify(settings)) });
      guard.saved();
      void message.success(tc('saved'));
    } catch (err) {
      if (err instanceof HttpError && err.errors.length) {
        form.setFields(
          err.errors
            .filter((e) => e.field.startsWith('settings.') && e.field !== 'settings.measurementId')
            .map((e) => ({
              name: e.field
                .replace(/^settings\./, '')
                .split('.')
                .map((k) => (/^\d+$/.test(k) ? Number(k) : k)),
              errors: [translateCode(e.code)],
            })) as never,
        );
      }
      void message.error(
        err instanceof HttpError && err.errors.some((e) => e.field === 'settings.measurementId')
          ? t('event.connectFirst')
          : errorMessage(err),
      );
    }
  };

  return (
    <Card title={t('event.title')}>
      <Form<Values>
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={onFinish}
        onValuesChange={guard.onValuesChange}
        initialValues={{
          eventName: saved.eventName ?? GA_DEFAULT_EVENT,
          value: saved.value ?? null,
          valueField: saved.valueField ?? '',
          currency: saved.currency ?? 'UAH',
          currencyField: saved.currencyField ?? '',
          clientIdField: saved.clientIdField ?? GA_DEFAULT_CLIENT_ID_FIELD,
          userIdField: saved.userIdField ?? '',
          utm: saved.utm ?? true,
          params: saved.params ?? [],
        }}
      >
        <Form.Item name="eventName" label={t('event.name')} extra={t('event.nameHint')} rules={[nameRule('event')]}>
          <Input className="lr-mono" maxLength={40} />
        </Form.Item>
        <div className="lr-ga-row">
          <Form.Item name="value" label={t('event.value')} extra={t('event.valueHint')}>
            <InputNumber min={0} className="lr-full" />
          </Form.Item>
          <Form.Item name="valueField" label={t('event.valueField')} rules={[pathRule()]}>
            <LeadPathInput label={t('event.valueField')} className="lr-full" />
          </Form.Item>
          <Form.Item
            name="currency"
            label={t('event.currency')}
            normalize={(v: string) => v.toUpperCase()}
            rules={[{ pattern: /^[A-Za-z]{3}$/, message: translateCode('VALIDATION_ERROR') }]}
          >
            <Input maxLength={3} className="lr-mono" />
          </Form.Item>
          <Form.Item name="currencyField" label={t('event.currencyField')} rules={[pathRule()]}>
            <LeadPathInput label={t('event.currencyField')} className="lr-full" />
          </Form.Item>
          <Form.Item
            name="clientIdField"
            label={t('event.clientIdField')}
            extra={t('event.clientIdHint')}
            rules={[pathRule(true)]}
          >
            <LeadPathInput label={t('event.clientIdField')} className="lr-full" />
          </Form.Item>
          <Form.Item
            name="userIdField"
            label={t('event.userIdField')}
            extra={t('event.userIdHint')}
            rules={[pathRule()]}
          >
            <LeadPathInput label={t('event.userIdField')} className="lr-full" />
          </Form.Item>
        </div>
        <Form.Item name="utm" valuePropName="checked" label={t('event.utm')} extra={t('event.utmHint')}>
          <Switch />
        </Form.Item>
        <Typography.Title level={5}>{t('event.params')}</Typography.Title>
        <Typography.Paragraph type="secondary" className="lr-hint">
          {t('event.paramsHint', { max: GA_MAX_CUSTOM_PARAMS })}
        </Typography.Paragraph>
        <Form.List name="params">
          {(fields, { add, remove }) => (
            <>
              {fields.map((field) => (
                <div key={field.key} className="lr-ga-param" data-testid="ga-param">
                  <Form.Item name={[field.name, 'name']} rules={[nameRule('param')]}>
                    <Input placeholder={t('event.paramName')} aria-label={t('event.paramName')} className="lr-mono" />
                  </Form.Item>
                  <Form.Item name={[field.name, 'from']} rules={[pathRule(true)]}>
                    <LeadPathInput label={t('event.paramFrom')} className="lr-full" />
                  </Form.Item>
                  <Button
                    type="text"
                    danger
                    icon={<DeleteOutlined aria-hidden />}
                    aria-label={t('event.removeParam')}
                    onClick={() => remove(field.name)}
                  />
                </div>
              ))}
              {fields.length < GA_MAX_CUSTOM_PARAMS && (
                <Button
                  icon={<PlusOutlined aria-hidden />}
                  onClick={() => add({ name: '', from: '' })}
                  className="lr-mb"
                >
                  {t('event.addParam')}
                </Button>
              )}
            </>
          )}
        </Form.List>
        <div className="lr-actions">
          <PermissionGuard>
            <Button type="primary" htmlType="submit" loading={connect.isPending}>
              {t('event.save')}
            </Button>
          </PermissionGuard>
        </div>
      </Form>
    </Card>
  );
}
