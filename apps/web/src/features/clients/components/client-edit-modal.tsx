import {
  type Client,
  type ClientPatchBody,
  DATE_MAX_YEAR,
  DATE_MIN_YEAR,
  type Locale,
  MONEY_MAX,
} from '@leadrelay/shared';
import { DatePicker, Form, InputNumber, Modal, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { type Dayjs, dayjs } from '../../../lib/dayjs';
import { errorMessage } from '../../../lib/errors';
import { currentLocale } from '../../../lib/locale';
import { usePlansQuery } from '../../../lib/plans';
import { useApp } from '../../../lib/use-app';
import { usePatchClientMutation } from '../queries';

interface Values {
  active: boolean;
  expDate: Dayjs | null;
  plan: string;
  role: Client['role'];
  credit: number | null;
}

const DEMO = 'demo';

/** Active, paid-until date, plan, role (staff roles: the owner only) and balance; audited on the server. */
export function ClientEditModal({
  client,
  isOwner,
  onClose,
}: {
  client: Client | null;
  isOwner: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('clients');
  const { message } = useApp();
  const [form] = Form.useForm<Values>();
  const patch = usePatchClientMutation();
  const plans = usePlansQuery();
  const lang: Locale = currentLocale();
  if (!client) return null;
  const submit = async (values: Values) => {
    const body: ClientPatchBody = {
      active: values.active,
      expDate: values.expDate ? values.expDate.format('YYYY-MM-DD') : null,
      plan: values.plan === DEMO ? null : values.plan,
    };
    // A cleared balance is left as it was (the server takes 0 to MONEY_MAX in whole cents).
    if (values.credit !== null) body.credit = values.credit;
    if (values.role !== client.role) body.role = values.role;
    try {
      await patch.mutateAsync({ id: client._id, body });
      void message.success(t('edit.saved'));
      onClose();
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };
  const roles = isOwner ? (['client', 'support', 'admin'] as const) : (['client'] as const);
  return (
    <Modal
      open
      title={t('edit.title', { login: client.login })}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('edit.submit')}
      confirmLoading={patch.isPending}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={{
          active: client.active,
          expDate: client.expDate ? dayjs(client.expDate) : null,
          plan: client.planId ?? DEMO,
          role: client.role,
          credit: client.credit,
        }}
      >
        <Form.Item name="active" label={t('edit.active')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name="expDate" label={t('edit.expDate')}>
          <DatePicker
            format="YYYY-MM-DD"
            className="lr-full-width"
            disabledDate={(day) => day.year() < DATE_MIN_YEAR || day.year() > DATE_MAX_YEAR}
          />
        </Form.Item>
        <Form.Item name="plan" label={t('edit.plan')}>
          <Select
            loading={plans.isPending}
            options={[
              { value: DEMO, label: t('edit.demo') },
              ...(plans.data ?? []).map((p) => ({ value: p._id, label: p.title[lang] })),
            ]}
          />
        </Form.Item>
        <Form.Item name="role" label={t('edit.role')}>
          <Select disabled={!isOwner} options={roles.map((r) => ({ value: r, label: t(`roles.${r}`) }))} />
        </Form.Item>
        <Form.Item name="credit" label={t('edit.credit')}>
          <InputNumber step={1} precision={2} min={0} max={MONEY_MAX} className="lr-full-width" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
