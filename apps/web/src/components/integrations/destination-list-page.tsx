import '../../components/integrations/integrations.css';
import { ArrowLeftOutlined, PlusOutlined } from '@ant-design/icons';
import { ZCreateIntegrationBody } from '@leadrelay/shared';
import { Button, Form, Input, Modal, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { errorMessage } from '../../lib/errors';
import { applyServerErrors, zodRule } from '../../lib/form';
import { integrationPath } from '../../lib/integrations/integration-path';
import { useCreateIntegrationMutation } from '../../lib/integrations/queries';
import { localePath } from '../../lib/locale';
import { useApp } from '../../lib/use-app';
import { PermissionGuard } from '../permission-guard';
import { IntegrationsList } from './integrations-list';

interface Props {
  /** The catalogue slug. */
  type: string;
  title: string;
  subtitle: string;
  /** The button and the modal's title ("Connect <brand>"). */
  connectLabel: string;
  /** The new connection's name, changeable in the modal. */
  defaultName: string;
  /** What the list says while the account has no connection of the type, and its first step (`connectLabel` too). */
  empty: { title: string; text: string; action: string };
  /** The connect button's icon (a new connection that is connected at once: a link). */
  icon?: ReactNode;
  /** Its own dialog for a new connection (named and connected at once), instead of the one asking a name. */
  dialog?: (props: { open: boolean; close: () => void }) => ReactNode;
}

/** A new connection by name; its page then asks for the key and the settings. */
function NameDialog({
  type,
  connectLabel,
  defaultName,
  open,
  close,
}: Pick<Props, 'type' | 'connectLabel' | 'defaultName'> & { open: boolean; close: () => void }) {
  const { t } = useTranslation('integrations');
  const { message } = useApp();
  const navigate = useNavigate();
  const create = useCreateIntegrationMutation();
  const [form] = Form.useForm<{ name: string }>();

  const onFinish = async ({ name }: { name: string }) => {
    try {
      const created = await create.mutateAsync({ type, name: name.trim() });
      close();
      navigate(integrationPath(created));
    } catch (err) {
      if (!applyServerErrors(form, err)) void message.error(errorMessage(err));
    }
  };

  return (
    <Modal
      open={open}
      title={connectLabel}
      okText={t('create.submit')}
      onOk={() => form.submit()}
      onCancel={close}
      confirmLoading={create.isPending}
      destroyOnHidden
      forceRender
    >
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ name: defaultName }}
        onFinish={onFinish}
      >
        <Form.Item name="name" label={t('create.name')} rules={[zodRule(ZCreateIntegrationBody.shape.name)]}>
          <Input maxLength={100} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * /admin/integrations/<type> of a destination with its own screens (a connector's page): its
 * connections, and a new one (by name, or through the connector's own dialog).
 */
export function DestinationListPage({ type, title, subtitle, connectLabel, defaultName, empty, icon, dialog }: Props) {
  const { t } = useTranslation('integrations');
  // ?connect=1 (a link that says "Connect <brand>", the widget page's) opens the dialog at once.
  const [params, setParams] = useSearchParams();
  const [open, setOpen] = useState(params.get('connect') === '1');
  const close = () => {
    setOpen(false);
    if (params.has('connect')) setParams({}, { replace: true });
  };

  return (
    <div className="lr-page">
      <Link to={localePath('/admin/integrations')} className="lr-back">
        <ArrowLeftOutlined aria-hidden /> {t('page.allIntegrations')}
      </Link>
      <div className="lr-page-head">
        <div className="lr-min0">
          <Typography.Title level={2} className="lr-page-title">
            {title}
          </Typography.Title>
          <Typography.Paragraph type="secondary">{subtitle}</Typography.Paragraph>
        </div>
        <PermissionGuard>
          <Button type="primary" icon={icon ?? <PlusOutlined aria-hidden />} onClick={() => setOpen(true)}>
            {connectLabel}
          </Button>
        </PermissionGuard>
      </div>
      <IntegrationsList fixedType={type} empty={empty} onCreate={() => setOpen(true)} />
      {dialog ? (
        dialog({ open, close })
      ) : (
        <NameDialog type={type} connectLabel={connectLabel} defaultName={defaultName} open={open} close={close} />
      )}
    </div>
  );
}
