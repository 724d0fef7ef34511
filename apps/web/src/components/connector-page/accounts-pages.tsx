// The `accounts` screens' pages (kit/manifest-accounts.ts, ADR 014): /admin/integrations/<slug>, the
// account's connections with their assets and forms, and /admin/integrations/<listPath>, the
// connector's integrations with a form picker that makes one. No connector is named here.
import '../integrations/integrations.css';
import './accounts.css';
import { ArrowLeftOutlined, PlusOutlined, SettingOutlined, UnorderedListOutlined } from '@ant-design/icons';
import type { Integration } from '@leadrelay/shared';
import { Alert, Button, Card, Empty, Form, Input, Modal, Select, Skeleton, Typography } from 'antd';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import {
  useConnectionsQuery,
  useCreateFormIntegrationMutation,
  useFormsQuery,
  useItemsQuery,
} from '../../lib/connectors/account-queries';
import { errorMessage } from '../../lib/errors';
import { applyServerErrors } from '../../lib/form';
import { integrationPath } from '../../lib/integrations/integration-path';
import { localePath } from '../../lib/locale';
import { useApp } from '../../lib/use-app';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useOAuthReturn } from '../../lib/use-oauth-return';
import { IntegrationsList } from '../integrations/integrations-list';
import { PermissionGuard } from '../permission-guard';
import { type AccountsManifest, LogoMark, useSignIn } from './account-bits';
import { AccountConnectionCard } from './account-connection-card';
import { type Say, useConnectorWords } from './words';

interface Props {
  manifest: AccountsManifest;
}

/** The back link, the title and subtitle, and the page's buttons. */
function PageHead({ title, subtitle, actions }: { title: string; subtitle: string; actions: ReactNode }) {
  const { t: ti } = useTranslation('integrations');
  return (
    <>
      <Link to={localePath('/admin/integrations')} className="lr-back">
        <ArrowLeftOutlined aria-hidden /> {ti('page.allIntegrations')}
      </Link>
      <div className="lr-page-head">
        <div className="lr-min0">
          <Typography.Title level={2} className="lr-page-title">
            {title}
          </Typography.Title>
          <Typography.Paragraph type="secondary">{subtitle}</Typography.Paragraph>
        </div>
        <div className="lr-actions lr-acc-head-actions">{actions}</div>
      </div>
    </>
  );
}

/** /admin/integrations/<slug>: the account's connections, their assets (subscribe) and lead forms. */
export function AccountsPage({ manifest }: Props) {
  const say = useConnectorWords(manifest.slug);
  const navigate = useNavigate();
  useDocumentTitle(say('title'));
  const justConnected = useOAuthReturn({ done: say('connect.done'), failed: say('connect.failed') });
  const connections = useConnectionsQuery(manifest);
  const { connect, isPending } = useSignIn(manifest);

  const connectButton = (
    <PermissionGuard>
      <Button type="primary" icon={<LogoMark logo={manifest.logo} mono />} onClick={connect} loading={isPending}>
        {say('connect.button')}
      </Button>
    </PermissionGuard>
  );

  return (
    <div className="lr-page">
      <PageHead
        title={say('title')}
        subtitle={say('subtitle')}
        actions={
          <>
            <Button
              icon={<UnorderedListOutlined aria-hidden />}
              onClick={() => navigate(localePath(`/admin/integrations/${manifest.accounts.listPath}`))}
            >
              {say('list.open')}
            </Button>
            {connectButton}
          </>
        }
      />
      {connections.isPending && <Skeleton active />}
      {connections.isError && <Alert type="error" showIcon title={errorMessage(connections.error)} />}
      {connections.data?.length === 0 && (
        <Card>
          <Empty
            image={<LogoMark logo={manifest.logo} className="lr-empty-icon" />}
            description={
              <>
                <Typography.Title level={4}>{say('empty.title')}</Typography.Title>
                <Typography.Paragraph type="secondary" className="lr-empty-text">
                  {say('empty.text')}
                </Typography.Paragraph>
              </>
            }
          >
            {connectButton}
          </Empty>
        </Card>
      )}
      <div className="lr-acc-connections">
        {connections.data?.map((c) => (
          <AccountConnectionCard
            key={c.id}
            manifest={manifest}
            say={say}
            connection={c}
            highlight={c.id === justConnected}
          />
        ))}
      </div>
    </div>
  );
}

interface PickerValues {
  name: string;
  asset?: string;
  form?: string;
}

const SEP = '|';
const assetValue = (connectionId: string, assetId: string) => `${connectionId}${SEP}${assetId}`;

/** A new integration of the connector: which asset (of which connection) and which of its lead forms. */
function FormPickerDialog({
  manifest,
  say,
  open,
  onClose,
  onCreated,
}: Props & { say: Say; open: boolean; onClose: () => void; onCreated: (integration: Integration) => void }) {
  const { t: tc } = useTranslation('common');
  const { message } = useApp();
  const navigate = useNavigate();
  const [form] = Form.useForm<PickerValues>();
  const items = useItemsQuery(manifest);
  const chosen = Form.useWatch('asset', form);
  const [connectionId, assetId] = chosen ? chosen.split(SEP) : [];
  const forms = useFormsQuery(manifest, connectionId, assetId);
  const create = useCreateFormIntegrationMutation(manifest);

  useEffect(() => {
    if (!open) form.resetFields();
  }, [open, form]);

  const onFinish = async (values: PickerValues) => {
    if (!connectionId || !assetId || !values.form) return;
    try {
      const saved = await create.mutateAsync({
        name: values.name.trim(),
        choice: { connection: connectionId, asset: assetId, form: values.form },
      });
      onCreated(saved);
    } catch (err) {
      if (!applyServerErrors(form, err)) void message.error(errorMessage(err));
    }
  };
  const onFormPicked = (formId: string) => {
    const picked = forms.data?.find((f) => f.id === formId);
    const asset = items.data?.find((p) => assetValue(p.connectionId, p.assetId) === chosen);
    if (picked && asset && !form.isFieldTouched('name')) {
      form.setFieldValue('name', `${asset.assetName} — ${picked.name}`.slice(0, 100));
    }
  };
  const noAssets = items.data?.length === 0;

  return (
    <Modal
      open={open}
      title={say('create.title')}
      onCancel={onClose}
      okText={say('create.submit')}
      cancelText={tc('cancel')}
      onOk={() => form.submit()}
      okButtonProps={{ loading: create.isPending, disabled: noAssets }}
      destroyOnHidden
    >
      {noAssets ? (
        <Alert
          type="info"
          showIcon
          title={say('create.noPages')}
          action={
            <Button size="small" onClick={() => navigate(localePath(`/admin/integrations/${manifest.slug}`))}>
              {say('connect.button')}
            </Button>
          }
        />
      ) : (
        <Form<PickerValues> form={form} layout="vertical" onFinish={onFinish} requiredMark={false}>
          <Form.Item
            name="asset"
            label={say('create.page')}
            rules={[{ required: true, message: say('create.pageRequired') }]}
          >
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              loading={items.isPending}
              placeholder={say('create.pagePlaceholder')}
              onChange={() => form.setFieldValue('form', undefined)}
              options={(items.data ?? []).map((p) => ({
                value: assetValue(p.connectionId, p.assetId),
                label: `${p.assetName} (${p.connectionName})`,
              }))}
            />
          </Form.Item>
          <Form.Item
            name="form"
            label={say('create.form')}
            rules={[{ required: true, message: say('create.formRequired') }]}
            extra={forms.isError ? <Typography.Text type="danger">{say('somethingWrong')}</Typography.Text> : undefined}
          >
            <Select
              disabled={!chosen}
              loading={forms.isFetching}
              placeholder={say('create.formPlaceholder')}
              onChange={onFormPicked}
              options={(forms.data ?? []).map((f) => ({ value: f.id, label: f.name }))}
            />
          </Form.Item>
          <Form.Item
            name="name"
            label={say('create.name')}
            rules={[{ required: true, whitespace: true, message: say('create.nameRequired') }]}
          >
            <Input maxLength={100} />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}

/** /admin/integrations/<listPath>: the account's integrations of the connector, and a new one from a form. */
export function AccountIntegrationsPage({ manifest }: Props) {
  const say = useConnectorWords(manifest.slug);
  const navigate = useNavigate();
  useDocumentTitle(say('title'));
  const [creating, setCreating] = useState(false);
  const onCreated = (i: Integration) => {
    setCreating(false);
    navigate(integrationPath(i));
  };

  return (
    <div className="lr-page">
      <PageHead
        title={say('list.title')}
        subtitle={say('list.subtitle')}
        actions={
          <>
            <Button
              icon={<SettingOutlined aria-hidden />}
              onClick={() => navigate(localePath(`/admin/integrations/${manifest.slug}`))}
            >
              {say('list.connections')}
            </Button>
            <PermissionGuard>
              <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => setCreating(true)}>
                {say('list.new')}
              </Button>
            </PermissionGuard>
          </>
        }
      />
      <IntegrationsList
        fixedType={manifest.slug}
        empty={{ title: say('list.empty.title'), text: say('list.empty.text'), action: say('list.new') }}
        onCreate={() => setCreating(true)}
      />
      <FormPickerDialog
        manifest={manifest}
        say={say}
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={onCreated}
      />
    </div>
  );
}
