import {
  type AlphaSmsSettings,
  DEFAULT_QUIET_HOURS,
  type Integration,
  SMS_RECIPIENTS,
  type SmsRecipients,
  ZAlphaName,
  ZAlphaSmsSettings,
} from '@leadrelay/shared';
import { Button, Card, Checkbox, Form, Input, Radio, Switch, TimePicker, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { PermissionGuard } from '../../../components/permission-guard';
import { type Dayjs, dayjs } from '../../../lib/dayjs';
import { errorMessage, translateCode } from '../../../lib/errors';
import { zodRule } from '../../../lib/form';
import { HttpError } from '../../../lib/http';
import { useConnectMutation } from '../../../lib/integrations/queries';
import { useFormGuard } from '../../../lib/unsaved-changes';
import { useApp } from '../../../lib/use-app';
import { TemplateEditor } from './template-editor';

interface Values {
  sender: string;
  recipients: SmsRecipients;
  leadTemplate?: string;
  managerTemplate?: string;
  managerPhone?: string;
  viber: boolean;
  viberSender?: string;
  international: boolean;
  quietEnabled: boolean;
  quietFrom: Dayjs;
  quietTo: Dayjs;
}

const time = (hhmm: string) => dayjs(`2000-01-01T${hhmm}:00`);
// A Map: the path may come from the server's answer, so it is looked up as data.
const FORM_FIELD = new Map([
  ['quietHours.from', 'quietFrom'],
  ['quietHours.to', 'quietTo'],
]);

/** Who gets what and when: sender, Viber, recipients with their templates, quiet hours. */
export function SmsSettingsCard({ integration }: { integration: Integration }) {
  const { t } = useTranslation('sms');
  const { t: tc } = useTranslation('common');
  const { message } = useApp();
  const [form] = Form.useForm<Values>();
  const guard = useFormGuard();
  const connect = useConnectMutation(integration._id);
  const saved = integration.settings as Partial<AlphaSmsSettings>;
  const quiet = saved.quietHours ?? DEFAULT_QUIET_HOURS;
  const recipients = Form.useWatch('recipients', form) ?? saved.recipients ?? 'lead';
  const viber = Form.useWatch('viber', form) ?? false;
  const quietEnabled = Form.useWatch('quietEnabled', form) ?? quiet.enabled;

  const onFinish = async (v: Values) => {
    const settings: Record<string, unknown> = {
      sender: v.sender.trim(),
      recipients: v.recipients,
      viber: v.viber,
      international: v.international,
      quietHours: { enabled: v.quietEnabled, from: v.quietFrom.format('HH:mm'), to: v.quietTo.format('HH:mm') },
      ...(v.leadTemplate?.trim() ? { leadTemplate: v.leadTemplate.trim() } : {}),
      ...(v.managerTemplate?.trim() ? { managerTemplate: v.managerTemplate.trim() } : {}),
      ...(v.managerPhone?.trim() ? { managerPhone: v.managerPhone.trim() } : {}),
      ...(v.viber && v.viberSender?.trim() ? { viberSender: v.viberSender.trim() } : {}),
    };
    // The shared rules first (a missing template, an unknown placeholder), then the server's (a landline manager).
    const parsed = ZAlphaSmsSettings.safeParse(settings);
    if (!parsed.success) {
      form.setFields(
        parsed.error.issues.map((i) => {
          const path = i.path.join('.');
          return { name: FORM_FIELD.get(path) ?? path, errors: [translateCode(i.message)] };
        }) as never,
      );
      return;
    }
    try {
      await connect.mutateAsync({ settings });
      guard.saved();
      void message.success(tc('saved'));
    } catch (err) {
      if (err instanceof HttpError && err.errors.length) {
        form.setFields(
          err.errors.map((e) => {
            const path = e.field.replace(/^settings\./, '');
            return { name: FORM_FIELD.get(path) ?? path, errors: [translateCode(e.code)] };
          }) as never,
        );
      }
      void message.error(errorMessage(err));
    }
  };

  return (
    <Card title={t('settings.title')}>
      <Form<Values>
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={onFinish}
        onValuesChange={guard.onValuesChange}
        initialValues={{
          sender: saved.sender ?? '',
          recipients: saved.recipients ?? 'lead',
          leadTemplate: saved.leadTemplate ?? t('defaults.lead'),
          managerTemplate: saved.managerTemplate ?? t('defaults.manager'),
          managerPhone: saved.managerPhone ?? '',
          viber: saved.viber ?? false,
          viberSender: saved.viberSender ?? '',
          international: saved.international ?? false,
          quietEnabled: quiet.enabled,
          quietFrom: time(quiet.from),
          quietTo: time(quiet.to),
        }}
      >
        <Form.Item
          name="sender"
          label={t('settings.sender')}
          extra={t('settings.senderHint')}
          rules={[zodRule(ZAlphaName)]}
        >
          <Input maxLength={11} placeholder="LeadRelay" className="lr-mono" />
        </Form.Item>
        <Form.Item name="viber" valuePropName="checked" label={t('settings.viber')} extra={t('settings.viberHint')}>
          <Switch />
        </Form.Item>
        {viber && (
          <Form.Item name="viberSender" label={t('settings.viberSender')} extra={t('settings.viberSenderHint')}>
            <Input maxLength={30} />
          </Form.Item>
        )}
        <Form.Item name="recipients" label={t('settings.recipients')}>
          <Radio.Group options={SMS_RECIPIENTS.map((r) => ({ value: r, label: t(`recipients.${r}`) }))} />
        </Form.Item>
        {recipients !== 'manager' && (
          <Form.Item name="leadTemplate" label={t('settings.leadTemplate')} extra={t('settings.templateHint')}>
            <TemplateEditor label={t('settings.leadTemplate')} recipient="lead" />
          </Form.Item>
        )}
        {recipients !== 'lead' && (
          <>
            <Form.Item name="managerTemplate" label={t('settings.managerTemplate')}>
              <TemplateEditor label={t('settings.managerTemplate')} recipient="manager" />
            </Form.Item>
            <Form.Item name="managerPhone" label={t('settings.managerPhone')} extra={t('settings.managerPhoneHint')}>
              <Input inputMode="tel" placeholder="+380 67 111 22 33" />
            </Form.Item>
          </>
        )}
        <Form.Item name="international" valuePropName="checked">
          <Checkbox>{t('settings.international')}</Checkbox>
        </Form.Item>
        <Form.Item label={t('settings.quietHours')} extra={t('settings.quietHint')}>
          <div className="lr-sms-hours">
            <Form.Item name="quietEnabled" valuePropName="checked" noStyle>
              <Switch aria-label={t('settings.quietHours')} />
            </Form.Item>
            <span className="lr-sms-hour">
              <Typography.Text>{t('settings.quietFrom')}</Typography.Text>
              <Form.Item name="quietFrom" noStyle>
                <TimePicker
                  format="HH:mm"
                  minuteStep={5}
                  allowClear={false}
                  needConfirm={false}
                  disabled={!quietEnabled}
                  aria-label={t('settings.quietFrom')}
                />
              </Form.Item>
            </span>
            <span className="lr-sms-hour">
              <Typography.Text>{t('settings.quietTo')}</Typography.Text>
              <Form.Item name="quietTo" noStyle>
                <TimePicker
                  format="HH:mm"
                  minuteStep={5}
                  allowClear={false}
                  needConfirm={false}
                  disabled={!quietEnabled}
                  aria-label={t('settings.quietTo')}
                />
              </Form.Item>
            </span>
          </div>
        </Form.Item>
        <div className="lr-actions">
          <PermissionGuard>
            <Button type="primary" htmlType="submit" loading={connect.isPending}>
              {t('settings.save')}
            </Button>
          </PermissionGuard>
        </div>
      </Form>
    </Card>
  );
}
