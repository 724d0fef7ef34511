import type { Parser, ParserImapBody } from '@leadrelay/shared';
import { Alert, Button, Card, Col, Form, Input, InputNumber, Radio, Row, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { PermissionGuard } from '../../../components/permission-guard';
import { errorMessage } from '../../../lib/errors';
import { applyServerErrors } from '../../../lib/form';
import { formatDateTime } from '../../../lib/format';
import { useFormGuard } from '../../../lib/unsaved-changes';
import { useApp } from '../../../lib/use-app';
import { useConfigParserMutation, usePollParserMutation } from '../queries';

type Values = Omit<ParserImapBody, 'password'> & { password?: string };

/** The mailbox the parser polls (IMAP): server, sign-in (the password write-only), what to do with read mail. */
export function MailboxCard({ parser }: { parser: Parser }) {
  const { t } = useTranslation('parsers');
  const { t: te } = useTranslation('errors');
  const required = te('REQUIRED');
  const { message } = useApp();
  const [form] = Form.useForm<Values>();
  const guard = useFormGuard();
  const config = useConfigParserMutation(parser._id);
  const poll = usePollParserMutation(parser._id);
  const imap = parser.imap;
  const afterRead = Form.useWatch('afterRead', form);

  const onFinish = async (values: Values) => {
    const { password, ...rest } = values;
    try {
      await config.mutateAsync({ imap: { ...rest, ...(password ? { password } : {}) } as ParserImapBody });
      form.setFieldValue('password', '');
      guard.saved();
      void message.success(t('rules.saved'));
    } catch (err) {
      if (!applyServerErrors(form, err)) void message.error(errorMessage(err));
    }
  };
  const onRemove = async () => {
    try {
      await config.mutateAsync({ imap: null });
      form.resetFields();
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };
  const onCheck = async () => {
    try {
      const { stored } = await poll.mutateAsync();
      void message.success(t('imap.checked', { count: stored }));
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };

  return (
    <Card title={t('imap.title')}>
      <Typography.Paragraph type="secondary">{t('imap.hint')}</Typography.Paragraph>
      {imap?.lastError && (
        <Alert className="lr-mb" type="error" showIcon title={t('imap.lastError', { error: imap.lastError })} />
      )}
      {imap && (
        <Typography.Paragraph type="secondary">
          {imap.lastPollAt ? t('imap.lastPoll', { at: formatDateTime(imap.lastPollAt) }) : t('imap.neverPolled')}
        </Typography.Paragraph>
      )}
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={onFinish}
        onValuesChange={guard.onValuesChange}
        initialValues={{
          enabled: imap?.enabled ?? true,
          host: imap?.host ?? '',
          port: imap?.port ?? 993,
          tls: imap?.tls ?? true,
          login: imap?.login ?? '',
          password: '',
          mailbox: imap?.mailbox ?? 'INBOX',
          afterRead: imap?.afterRead ?? 'seen',
          moveTo: imap?.moveTo ?? '',
        }}
      >
        <Form.Item name="enabled" label={t('imap.enabled')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Row gutter={12}>
          <Col xs={24} sm={16}>
            <Form.Item name="host" label={t('imap.host')} rules={[{ required: true, message: required }]}>
              <Input placeholder="imap.gmail.com" maxLength={253} />
            </Form.Item>
          </Col>
          <Col xs={12} sm={4}>
            <Form.Item name="port" label={t('imap.port')}>
              <InputNumber min={1} max={65535} className="lr-grow" />
            </Form.Item>
          </Col>
          <Col xs={12} sm={4}>
            <Form.Item name="tls" label={t('imap.tls')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
        </Row>
        <Row gutter={12}>
          <Col xs={24} sm={12}>
            <Form.Item name="login" label={t('imap.login')} rules={[{ required: true, message: required }]}>
              <Input autoComplete="off" maxLength={200} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item
              name="password"
              label={t('imap.password')}
              extra={imap?.hasPassword ? t('imap.passwordKept') : undefined}
              rules={imap?.hasPassword ? [] : [{ required: true, message: required }]}
            >
              <Input.Password autoComplete="new-password" maxLength={500} />
            </Form.Item>
          </Col>
        </Row>
        <Row gutter={12}>
          <Col xs={24} sm={8}>
            <Form.Item name="mailbox" label={t('imap.mailbox')}>
              <Input maxLength={200} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={16}>
            <Form.Item name="afterRead" label={t('imap.afterRead')}>
              <Radio.Group
                options={[
                  { value: 'seen', label: t('imap.seen') },
                  { value: 'move', label: t('imap.move') },
                ]}
              />
            </Form.Item>
          </Col>
          {afterRead === 'move' && (
            <Col xs={24} sm={12}>
              <Form.Item name="moveTo" label={t('imap.moveTo')} rules={[{ required: true, message: required }]}>
                <Input maxLength={200} />
              </Form.Item>
            </Col>
          )}
        </Row>
        <PermissionGuard>
          <div className="lr-actions">
            <Button type="primary" htmlType="submit" loading={config.isPending}>
              {t('imap.save')}
            </Button>
            {imap?.enabled && (
              <Button onClick={onCheck} loading={poll.isPending}>
                {t('imap.check')}
              </Button>
            )}
            {imap && (
              <Button danger type="text" onClick={onRemove}>
                {t('imap.remove')}
              </Button>
            )}
          </div>
        </PermissionGuard>
      </Form>
    </Card>
  );
}
