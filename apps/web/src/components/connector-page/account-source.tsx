// A lead-form source's parts on the generic source integration page (kit/manifest-accounts.ts, ADR
// 014): the card of where its leads come from (the connection, its health and expiry; the asset and
// its subscription; the form; moving to another connection), and the mapping with a lead of its own
// form as the sample and a test-lead sender. No connector is named here.
import './accounts.css';
import { SendOutlined, SwapOutlined } from '@ant-design/icons';
import type { LeadFormView } from '@leadrelay/connectors/manifest';
import type { Integration } from '@leadrelay/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Select, Skeleton, Switch, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import {
  choiceOf,
  sendTestLead,
  useAssetQuery,
  useConnectionsQuery,
  useMigrateMutation,
  useSubscribeMutation,
} from '../../lib/connectors/account-queries';
import { errorMessage } from '../../lib/errors';
import { hookKeys } from '../../lib/hooks/queries';
import { localePath } from '../../lib/locale';
import { useApp } from '../../lib/use-app';
import { MappingSection } from '../integrations/mapping-section';
import { PermissionGuard } from '../permission-guard';
import { AccountAvatar, AccountStatus, type AccountsManifest, LogoMark, useSignIn } from './account-bits';
import { type Say, useConnectorWords } from './words';

interface Props {
  integration: Integration;
  manifest: AccountsManifest;
}

/** The integration's connection, asset and form, and the asset's state (its forms) while the connection has it. */
function useSourceOf({ integration, manifest }: Props) {
  const choice = choiceOf(manifest.accounts, integration);
  const connections = useConnectionsQuery(manifest);
  const connection = connections.data?.find((c) => c.id === choice.connection);
  const asset = connection?.assets.find((p) => p.id === choice.asset);
  const state = useAssetQuery(manifest, choice.connection, choice.asset, Boolean(asset));
  const form = state.data?.forms.find((f) => f.id === choice.form);
  return { choice, connections, connection, asset, state, form };
}

/** Where the source takes its leads from: connection (health, expiry), asset (subscription) and form. */
export function AccountSourceCard({ integration, manifest }: Props) {
  const say = useConnectorWords(manifest.slug);
  const { message } = useApp();
  const { choice, connections, connection, asset, state, form } = useSourceOf({ integration, manifest });
  const subscribe = useSubscribeMutation(manifest);
  const migrate = useMigrateMutation(manifest, integration._id);
  const { connect, isPending: connecting } = useSignIn(manifest);
  const [target, setTarget] = useState<string>();

  if (connections.isPending) {
    return (
      <Card title={say('source.title')}>
        <Skeleton active />
      </Card>
    );
  }
  const broken = !connection || connection.broken;
  const candidates = (connections.data ?? []).filter(
    (c) => c.id !== choice.connection && c.assets.some((p) => p.id === choice.asset),
  );
  const isSubscribed = state.data?.subscribed ?? asset?.subscribed ?? false;

  const onToggle = async (value: boolean) => {
    try {
      await subscribe.mutateAsync({ cid: choice.connection, aid: choice.asset, subscribe: value });
      void message.success(value ? say('pages.subscribed') : say('pages.unsubscribed'));
    } catch {
      void message.error(say('somethingWrong'));
    }
  };
  const onMigrate = async () => {
    if (!target) return;
    try {
      await migrate.mutateAsync(target);
      setTarget(undefined);
      void message.success(say('source.migrated'));
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };

  return (
    <Card
      title={
        <span>
          <LogoMark logo={manifest.logo} /> {say('source.title')}
        </span>
      }
      extra={<Link to={localePath(`/admin/integrations/${manifest.slug}`)}>{say('source.manage')}</Link>}
      data-testid="account-source"
    >
      {connections.isError && <Alert type="error" showIcon title={errorMessage(connections.error)} />}
      <Descriptions column={1} size="small" className="lr-mb">
        <Descriptions.Item label={say('source.connection')}>
          {connection ? (
            <span className="lr-acc-inline">
              <AccountAvatar manifest={manifest} accountId={connection.accountId} name={connection.name} size={24} />
              <span className="lr-break">{connection.name}</span>
              <AccountStatus
                connection={connection}
                warnDays={manifest.accounts.warnDays}
                say={say}
                withReason={false}
              />
            </span>
          ) : (
            <Typography.Text type="danger">{say('source.connectionGone')}</Typography.Text>
          )}
        </Descriptions.Item>
        <Descriptions.Item label={say('source.page')}>
          {asset ? (
            <span className="lr-acc-inline">
              <span className="lr-break">{asset.name}</span>
              <PermissionGuard>
                <Switch
                  size="small"
                  checked={isSubscribed}
                  disabled={broken}
                  loading={subscribe.isPending}
                  onChange={onToggle}
                  aria-label={say('pages.subscribeFor', { name: asset.name })}
                />
              </PermissionGuard>
              <Typography.Text type={isSubscribed ? 'success' : 'warning'}>
                {isSubscribed ? say('pages.on') : say('pages.off')}
              </Typography.Text>
            </span>
          ) : (
            <Typography.Text type="secondary">{choice.asset || '—'}</Typography.Text>
          )}
        </Descriptions.Item>
        <Descriptions.Item label={say('source.form')}>
          {form ? (
            <span className="lr-break">{form.name}</span>
          ) : state.isFetching ? (
            <Skeleton.Input size="small" active />
          ) : (
            <Typography.Text type="secondary">{choice.form || '—'}</Typography.Text>
          )}
        </Descriptions.Item>
      </Descriptions>
      {asset && !isSubscribed && !broken && (
        <Alert className="lr-mb" type="warning" showIcon title={say('source.notSubscribed')} />
      )}
      {broken && (
        <Alert
          type="error"
          showIcon
          title={connection ? say('source.brokenTitle') : say('source.goneTitle')}
          description={
            <div className="lr-acc-stack">
              <span>{candidates.length ? say('source.migrateHint') : say('source.reconnectHint')}</span>
              {candidates.length > 0 && (
                <div className="lr-acc-migrate">
                  <Select
                    aria-label={say('source.migrateTo')}
                    placeholder={say('source.migrateTo')}
                    value={target}
                    onChange={setTarget}
                    className="lr-acc-migrate-select"
                    options={candidates.map((c) => ({
                      value: c.id,
                      label: `${c.name}${c.broken ? ` (${say('status.broken')})` : ''}`,
                    }))}
                  />
                  <PermissionGuard>
                    <Button
                      icon={<SwapOutlined aria-hidden />}
                      disabled={!target}
                      loading={migrate.isPending}
                      onClick={onMigrate}
                    >
                      {say('source.migrate')}
                    </Button>
                  </PermissionGuard>
                </div>
              )}
              <PermissionGuard>
                <Button
                  type="primary"
                  icon={<LogoMark logo={manifest.logo} mono />}
                  onClick={connect}
                  loading={connecting}
                >
                  {say('connection.reconnect')}
                </Button>
              </PermissionGuard>
            </div>
          }
        />
      )}
    </Card>
  );
}

/**
 * A test lead made at the service on the form (what Meta's Lead Ads Testing Tool does, and what an
 * emulator does in a demo install): the service then sends the lead like a real one, and it appears
 * in the log below.
 */
function TestLeadSender({
  integrationId,
  manifest,
  say,
  formId,
  form,
  isSubscribed,
}: {
  integrationId: string;
  manifest: AccountsManifest;
  say: Say;
  formId: string;
  form: Pick<LeadFormView, 'questions'> | undefined;
  isSubscribed: boolean;
}) {
  const qc = useQueryClient();
  const [state, setState] = useState<'idle' | 'sending' | 'sent' | 'failed'>('idle');
  const [failure, setFailure] = useState<string>();

  const onSend = async () => {
    setState('sending');
    try {
      await sendTestLead(manifest, integrationId, form);
      setState('sent');
      // The realtime channel refreshes the log too; this covers a tab without it.
      setTimeout(() => void qc.invalidateQueries({ queryKey: hookKeys.all }), 1500);
    } catch (e) {
      setFailure(errorMessage(e));
      setState('failed');
    }
  };

  return (
    <div className="lr-test-lead">
      <div className="lr-test-lead-row">
        <Button icon={<SendOutlined aria-hidden />} onClick={onSend} loading={state === 'sending'} disabled={!formId}>
          {say('testLead.send')}
        </Button>
        <Typography.Text type="secondary" className="lr-hint">
          {say('testLead.hint')}
        </Typography.Text>
      </div>
      {!isSubscribed && <Alert type="warning" showIcon title={say('source.notSubscribed')} />}
      {state === 'sent' && <Alert type="success" showIcon role="status" title={say('testLead.sent')} />}
      {state === 'failed' && <Alert type="error" showIcon title={failure ?? say('somethingWrong')} />}
    </div>
  );
}

/**
 * The generic mapping editor with a lead of this integration's own form as its sample, so the
 * incoming fields offered are the form's questions (and the standard and service fields).
 */
export function AccountMapping({ integration, manifest }: Props) {
  const say = useConnectorWords(manifest.slug);
  const { choice, connections, asset, state, form } = useSourceOf({ integration, manifest });
  const [edited, setEdited] = useState<string | null>(null);
  const { sample: samples } = manifest.accounts;
  const sample =
    edited ?? JSON.stringify(samples.payload(form ?? { id: choice.form, questions: samples.standard }), null, 2);

  return (
    <>
      {!form && connections.isSuccess && (!asset || state.isSuccess || state.isError) && (
        <Alert className="lr-mb" type="info" showIcon title={say('mapping.standardOnly')} />
      )}
      <MappingSection
        integration={integration}
        sample={sample}
        onSampleChange={setEdited}
        testLead={
          <TestLeadSender
            integrationId={integration._id}
            manifest={manifest}
            say={say}
            formId={choice.form}
            form={form}
            isSubscribed={state.data?.subscribed ?? asset?.subscribed ?? false}
          />
        }
      />
    </>
  );
}
