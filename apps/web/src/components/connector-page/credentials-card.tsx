import { ReloadOutlined, SyncOutlined } from '@ant-design/icons';
import type { CredentialsCard, Field } from '@leadrelay/connectors/manifest';
import type { ConnectionCheck } from '@leadrelay/shared';
import { Alert, Button, Card, Form, Statistic, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { useConnectorList } from '../../lib/connectors/queries';
import { errorMessage } from '../../lib/errors';
import { intlLocale } from '../../lib/format';
import { HttpError } from '../../lib/http';
import { useCheckConnectionMutation } from '../../lib/integrations/queries';
import { checkReason } from '../../lib/integrations/reasons';
import { SecretInput } from '../integrations/secret-input';
import { reasonText, StatusTag } from '../integrations/status-tag';
import { PermissionGuard } from '../permission-guard';
import { FieldItem, fieldRule, initialValues, outputValues } from './fields';
import { serverFieldErrors } from './server-errors';
import { type CardProps, useSettingsForm, type Values } from './use-settings-form';

/** A figure a loader reads ({ amount, currency } as money), or null while it has none. */
function money(data: unknown): string | null {
  const value = data as { amount?: unknown; currency?: unknown } | undefined;
  if (typeof value?.amount !== 'number' || typeof value.currency !== 'string') return null;
  return new Intl.NumberFormat(intlLocale(), { style: 'currency', currency: value.currency }).format(value.amount);
}

const target = (f: Field<string>) => f.target ?? (f.kind === 'secret' ? 'auth' : 'settings');
const typedIn = (v: unknown) => typeof v === 'string' && v.trim() !== '';

/**
 * The credentials: secrets (write-only, to auth) and ids (to settings), saved with a connection check
 * whose outcome shows; a check button and a figure a loader reads (a balance), while connected. An
 * auth field that is no secret (an app's ID) is typed with the secrets and never shown back; typing
 * one auth field asks for the others. `showState`: outside the connector's page (whose general card
 * says it), the integration's state in the card's corner and why it broke.
 */
export function CredentialsCardView({
  integration,
  card,
  say,
  showState,
}: CardProps<CredentialsCard<string>> & { showState?: boolean }) {
  const { form, guard, connect, message, saved, toastSaved } = useSettingsForm(integration);
  const check = useCheckConnectionMutation(integration._id);
  const figure = useConnectorList(integration, card.figure?.list);
  const [replacing, setReplacing] = useState(false);
  const [result, setResult] = useState<ConnectionCheck | null>(null);
  const authFields = card.fields.filter((f) => target(f) === 'auth');
  const others = card.fields.filter((f) => f.kind !== 'secret');
  const authTyped = Form.useWatch((v: Values) => authFields.some((f) => typedIn(v[f.name])), form);
  // Until one is stored every auth field is asked for; then only once one of them is typed.
  const authRequired = !integration.isConnected || Boolean(authTyped);
  // An optional secret (a signing secret) is never asked for.
  const authRule = (f: Field<string>) =>
    fieldRule(f.schema, authRequired && !(f.kind === 'secret' && f.optional), {
      required: f.messages?.required && say(f.messages.required),
    });

  // What a check needs stored: the credentials; or, when every secret is optional (a signing
  // secret), the card's required settings (a URL).
  const needsAuth = authFields.some((f) => !(f.kind === 'secret' && f.optional));
  const canCheck = needsAuth
    ? integration.isConnected
    : card.fields.some((f) => f.required && target(f) === 'settings') &&
      card.fields.every((f) => !f.required || target(f) !== 'settings' || typedIn(saved[f.name]));

  const onFinish = async () => {
    const values = form.getFieldsValue(true) as Values;
    const auth = outputValues(authFields, values);
    const settings = outputValues(
      card.fields.filter((f) => target(f) === 'settings'),
      values,
    );
    const hasAuth = Object.values(auth).some((v) => v !== undefined);
    try {
      const res = await connect.mutateAsync({
        ...(Object.keys(settings).length ? { settings: { ...saved, ...settings } } : {}),
        ...(hasAuth ? { auth } : {}),
      });
      setResult(res);
      setReplacing(false);
      for (const f of authFields) form.setFieldValue(f.name, undefined);
      guard.saved();
      if (card.figure) void figure.refetch();
      toastSaved();
    } catch (err) {
      form.setFields(serverFieldErrors(err, card.fields).fields as never);
      void message.error(errorMessage(err));
    }
  };
  // An optional secret removed: the connection works on without one.
  const onRemove = async () => {
    try {
      setResult(await connect.mutateAsync({ auth: {} }));
      setReplacing(false);
      toastSaved();
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };
  const onCheck = async () => {
    try {
      setResult(await check.mutateAsync());
      if (card.figure) void figure.refetch();
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };

  const outcome = result && (
    <Alert
      className="lr-mb"
      type={result.ok ? 'success' : 'error'}
      showIcon
      role="status"
      title={result.ok ? say(card.result.ok) : say(card.result.failed)}
      description={result.ok ? undefined : checkReason(result)}
    />
  );
  const saveButton = (
    <PermissionGuard>
      <Button
        type="primary"
        htmlType="submit"
        loading={connect.isPending}
        className={others.length ? undefined : 'lr-mb'}
      >
        {!integration.isConnected && card.connect ? say(card.connect) : say(card.save)}
      </Button>
    </PermissionGuard>
  );
  // The check calls what is stored: after a change, saving checks the new one.
  const checkButton = (unavailable: boolean) =>
    card.check && (
      <Button
        icon={<SyncOutlined aria-hidden />}
        onClick={onCheck}
        loading={check.isPending}
        disabled={unavailable || guard.dirty}
      >
        {say(card.check)}
      </Button>
    );
  const figureFailed = figure.error instanceof HttpError ? figure.error : null;

  let corner: ReactNode;
  if (showState) corner = <StatusTag integration={integration} withReason={false} />;
  return (
    <Card title={say(card.title)} extra={corner}>
      {card.text && <Typography.Paragraph type="secondary">{say(card.text)}</Typography.Paragraph>}
      <Form<Values>
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={onFinish}
        onValuesChange={others.length ? guard.onValuesChange : undefined}
        initialValues={initialValues(
          others.filter((f) => target(f) !== 'auth'),
          saved,
          say,
        )}
      >
        {card.fields.map((f) => {
          if (f.kind === 'secret')
            return (
              <SecretInput
                key={f.name}
                name={f.name}
                label={say(f.label ?? f.name)}
                extra={f.hint ? say(f.hint) : undefined}
                isSet={integration.isConnected}
                replacing={replacing}
                onReplace={setReplacing}
                rules={[authRule(f)]}
                placeholder={f.placeholder && say(f.placeholder)}
                actions={
                  f.remove && (
                    <PermissionGuard>
                      <Button size="small" danger onClick={() => void onRemove()}>
                        {say(f.remove)}
                      </Button>
                    </PermissionGuard>
                  )
                }
              />
            );
          if (target(f) !== 'auth') return <FieldItem key={f.name} field={f} say={say} />;
          // Typed with the secrets: while none is stored, or they are being replaced.
          return integration.isConnected && !replacing ? null : (
            <FieldItem key={f.name} field={{ ...f, required: authRequired }} say={say} />
          );
        })}
        {showState && integration.status === 'broken' && integration.statusReason && (
          <Alert type="warning" showIcon title={reasonText(integration.statusReason)} className="lr-mb" />
        )}
        {/* Only secrets: nothing to save until one is typed. Else the card's fields save at its foot. */}
        {others.length ? (
          <>
            {outcome}
            {/* With fields of its own the check sits beside the save, waiting until there is something stored to check. */}
            <div className={card.check ? 'lr-actions lr-actions-split' : 'lr-actions'}>
              {card.check && checkButton(!canCheck)}
              {saveButton}
            </div>
          </>
        ) : (
          (replacing || !integration.isConnected) && saveButton
        )}
      </Form>
      {card.figure && integration.isConnected && (
        <div className="lr-mb">
          <Statistic
            className="lr-figure"
            title={say(card.figure.label)}
            value={money(figure.data) ?? '—'}
            loading={figure.isFetching && !figure.data}
          />
          {figureFailed && (
            <Typography.Text type="danger" className="lr-hint">
              {figureFailed.serverMessage ? reasonText(figureFailed.serverMessage) : errorMessage(figureFailed)}
            </Typography.Text>
          )}
          <Button
            size="small"
            icon={<ReloadOutlined aria-hidden />}
            onClick={() => void figure.refetch()}
            className="lr-mt"
          >
            {say(card.figure.refresh)}
          </Button>
        </div>
      )}
      {card.check && !others.length && outcome}
      {card.check && !others.length && canCheck && checkButton(false)}
    </Card>
  );
}
