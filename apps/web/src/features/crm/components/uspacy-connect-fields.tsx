import { parseIncomingWebhook, portalOrigin, type UspacyConnectBody, type UspacyConnectMode } from '@leadrelay/shared';
import { Form, Input, Radio, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { translateCode } from '../../../lib/errors';

export const US_NAME = 'Uspacy';

export interface UspacyConnectValues {
  mode: UspacyConnectMode;
  portal?: string;
  email?: string;
  password?: string;
  code?: string;
  webhookUrl?: string;
}

export const initialConnectValues: UspacyConnectValues = { mode: 'webhook' };
/** The recommended way first. */
const MODES: UspacyConnectMode[] = ['webhook', 'password'];

/** The form's values as POST /api/uspacy/connect takes them. */
export function toConnectBody(integrationId: string, v: UspacyConnectValues): UspacyConnectBody {
  if (v.mode === 'webhook') return { mode: 'webhook', integrationId, webhookUrl: (v.webhookUrl ?? '').trim() };
  return {
    mode: 'password',
    integrationId,
    portal: (v.portal ?? '').trim(),
    email: (v.email ?? '').trim(),
    password: v.password ?? '',
    ...(v.code?.trim() ? { code: v.code.trim() } : {}),
  };
}

const required = () => ({ required: true, whitespace: true, message: translateCode('REQUIRED') });
// The shape only: the server checks the host against the addresses it allows.
const shaped = (isOk: (v: string) => boolean, code: string) => ({
  validator: async (_: unknown, value?: string) => {
    if (value?.trim() && !isOk(value)) throw new Error(translateCode(code));
  },
});

/**
 * How to connect, inside a form: the portal's incoming webhook URL (recommended: made once by an
 * administrator, no password involved) or signing in with an account's e-mail and password, which
 * are sent to Uspacy once and not kept.
 */
export function UspacyConnectFields() {
  const { t } = useTranslation('crm');
  const mode = Form.useWatch<UspacyConnectMode | undefined>('mode') ?? 'webhook';
  return (
    <>
      <Form.Item name="mode" label={t('create.method')}>
        <Radio.Group
          className="lr-crm-radios"
          options={MODES.map((m) => ({ value: m, label: t(`uspacy.modes.${m}`) }))}
        />
      </Form.Item>
      {mode === 'webhook' ? (
        <Form.Item
          name="webhookUrl"
          label={t('uspacy.webhookUrl')}
          extra={t('uspacy.webhookHint')}
          rules={[required(), shaped((v) => parseIncomingWebhook(v) !== undefined, 'USPACY_WEBHOOK_URL_INVALID')]}
        >
          <Input.Password
            autoComplete="off"
            placeholder="https://your-company.uspacy.ua/company/v1/incoming_webhooks/run/…"
          />
        </Form.Item>
      ) : (
        <>
          <Form.Item
            name="portal"
            label={t('uspacy.portal')}
            extra={t('uspacy.portalHint')}
            rules={[required(), shaped((v) => portalOrigin(v) !== undefined, 'USPACY_PORTAL_INVALID')]}
          >
            <Input placeholder="your-company.uspacy.ua" autoComplete="off" maxLength={200} />
          </Form.Item>
          <Form.Item
            name="email"
            label={t('uspacy.email')}
            rules={[required(), { type: 'email', message: translateCode('EMAIL') }]}
          >
            <Input type="email" autoComplete="off" maxLength={200} />
          </Form.Item>
          <div className="lr-crm-pair">
            <Form.Item name="password" label={t('uspacy.password')} className="lr-grow" rules={[required()]}>
              <Input.Password autoComplete="new-password" maxLength={200} />
            </Form.Item>
            <Form.Item name="code" label={t('uspacy.code')} className="lr-crm-narrow">
              <Input autoComplete="one-time-code" inputMode="numeric" maxLength={20} />
            </Form.Item>
          </div>
          <Typography.Paragraph type="secondary" className="lr-hint">
            {t('uspacy.passwordHint')}
          </Typography.Paragraph>
        </>
      )}
    </>
  );
}
