// What the connection card shows below its buttons (kit/manifest.ts ConnectionSection): how it is
// connected, snapshots made on demand, a credentials way folded away (the stage watch: stage-watch-note.tsx).
import { DownloadOutlined, SaveOutlined } from '@ant-design/icons';
import type { AccountSection, CredentialsMethod, SnapshotsSection } from '@leadrelay/connectors/manifest';
import type { Integration } from '@leadrelay/shared';
import { Button, Collapse, Descriptions, Form, Input, Skeleton, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useServerCallMutation, useServerCallQuery } from '../../lib/connectors/queries';
import { errorMessage } from '../../lib/errors';
import { formatDateTime } from '../../lib/format';
import { useApp } from '../../lib/use-app';
import { PermissionGuard } from '../permission-guard';
import { useCredentialsConnect } from './connect-flow';
import { fieldsOf, initialValues, ruleOf, type Values } from './field-values';
import { usePage } from './page-context';
import { RowList } from './row-list';

type Answer = Record<string, unknown>;
const asAnswer = (v: unknown): Answer => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Answer) : {});

/**
 * What a dialog that connects again opens with: the account's values of the method's text and choice
 * fields (never a secret), once the account says it is connected (`when`).
 */
export function prefillOf(answer: unknown, when: string, method: CredentialsMethod<string>): Values | undefined {
  const values = asAnswer(answer);
  if (values[when] !== true) return undefined;
  const names = fieldsOf(method.items)
    .filter((f) => f.kind === 'text' || f.kind === 'radio' || f.kind === 'select')
    .map((f) => f.name);
  return Object.fromEntries(
    names.flatMap((name) => (typeof values[name] === 'string' ? [[name, values[name]]] : [])),
  ) as Values;
}

/** The account read (`call`), re-read whenever the integration changes. */
export const useAccount = (integration: Integration, section: AccountSection<string, string> | undefined) =>
  useServerCallQuery(integration, section?.call ?? { method: 'GET', path: '' }, {
    enabled: Boolean(section),
    key: integration.updatedAt,
  });

/** How the integration is connected (a portal, the way, the account), nothing secret. */
export function AccountRows({
  integration,
  section,
}: {
  integration: Integration;
  section: AccountSection<string, string>;
}) {
  const { manifest, say } = usePage();
  const account = useAccount(integration, section);
  if (!integration.isConnected) return null;
  if (account.isPending) return <Skeleton active paragraph={{ rows: 1 }} title={false} />;
  const data = asAnswer(account.data);
  if (data[section.when] !== true) return null;
  const rows = section.rows.flatMap((row): { row: typeof row; shown: ReactNode }[] => {
    const value = data[row.field];
    const text = typeof value === 'string' ? value : undefined;
    if (row.words) return [{ row, shown: say(`${row.words.group}.${text ?? row.words.fallback}`) }];
    return text ? [{ row, shown: <span className="lr-break">{text}</span> }] : [];
  });
  return (
    <Descriptions column={1} size="small" className="lr-mt" data-testid={`${manifest.slug}-account`}>
      {rows.map(({ row, shown }) => (
        <Descriptions.Item key={row.field} label={say(row.label)}>
          {shown}
        </Descriptions.Item>
      ))}
    </Descriptions>
  );
}

function download(snapshot: Answer, file: string) {
  const at = String(snapshot.createdAt ?? '');
  const blob = new Blob([JSON.stringify(snapshot, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = `${file}-${at.slice(0, 19).replace(/[:T]/g, '-')}.json`;
  a.click();
  URL.revokeObjectURL(url);
}

/** The snapshots a list answers, bare or as `{ data }`: those with an id and a time. */
function snapshotsOf(raw: unknown): Answer[] {
  const items = Array.isArray(raw) ? raw : asAnswer(raw).data;
  return (Array.isArray(items) ? items : [])
    .map(asAnswer)
    .filter((s) => typeof s._id === 'string' && typeof s.createdAt === 'string');
}

/** Snapshots made on demand (the settings and the account's lists), listed with a summary and a download. */
export function Snapshots({ integration, section }: { integration: Integration; section: SnapshotsSection<string> }) {
  const { say } = usePage();
  const { message } = useApp();
  const list = useServerCallQuery(integration, section.list, { enabled: integration.isConnected });
  const make = useServerCallMutation(integration, section.make, section.list);
  if (!integration.isConnected) return null;

  const onCreate = async () => {
    try {
      await make.mutateAsync({});
      void message.success(say(section.created));
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };

  return (
    <div className="lr-crm-section">
      <div className="lr-crm-section-head">
        <Typography.Title level={5} className="lr-crm-section-title">
          {say(section.title)}
        </Typography.Title>
        <PermissionGuard>
          <Button size="small" icon={<SaveOutlined aria-hidden />} onClick={onCreate} loading={make.isPending}>
            {say(section.create)}
          </Button>
        </PermissionGuard>
      </div>
      <Typography.Paragraph type="secondary" className="lr-hint">
        {say(section.hint)}
      </Typography.Paragraph>
      {list.isError ? (
        <Typography.Text type="danger">{errorMessage(list.error)}</Typography.Text>
      ) : (
        <RowList
          loading={list.isPending}
          empty={say(section.empty)}
          items={snapshotsOf(list.data).map((s) => ({
            key: String(s._id),
            title: formatDateTime(String(s.createdAt)),
            description: say(section.summary.word, { ...section.summary.count(s) }),
            actions: (
              <Button
                size="small"
                type="text"
                icon={<DownloadOutlined aria-hidden />}
                aria-label={say(section.download)}
                onClick={() => download(s, section.file)}
              />
            ),
          }))}
        />
      )}
    </div>
  );
}

/** A credentials way folded under the card's buttons ("Use an API token instead"): one field and its save. */
export function FoldedMethod({ integration, method }: { integration: Integration; method: CredentialsMethod<string> }) {
  const { t } = useTranslation('crm');
  const { say } = usePage();
  const { message } = useApp();
  const [form] = Form.useForm<Values>();
  const connect = useCredentialsConnect();
  const fields = fieldsOf(method.items);
  if (!method.folded) return null;
  const { folded } = method;

  const onFinish = async (values: Values) => {
    try {
      await connect.mutateAsync({ id: integration._id, method, values });
      form.resetFields();
      void message.success(t('ui.saved_success'));
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };

  return (
    <Collapse
      ghost
      className="lr-crm-section"
      items={[
        {
          key: method.key,
          label: say(folded.title),
          children: (
            <Form<Values>
              form={form}
              layout="vertical"
              requiredMark={false}
              onFinish={onFinish}
              initialValues={initialValues(fields, {}, say)}
            >
              <Typography.Paragraph type="secondary" className="lr-hint">
                {say(folded.hint)}
              </Typography.Paragraph>
              <div className="lr-add-row">
                {fields.map((f) => {
                  const label = f.label ? say(f.label) : f.name;
                  return (
                    <Form.Item key={f.name} name={f.name} noStyle rules={[ruleOf(f, say)]}>
                      <FoldedInput secret={f.kind === 'secret'} label={label} />
                    </Form.Item>
                  );
                })}
                <PermissionGuard>
                  <Button htmlType="submit" loading={connect.isPending}>
                    {say(folded.save)}
                  </Button>
                </PermissionGuard>
              </div>
              <Form.Item shouldUpdate noStyle>
                {() => {
                  const errors = form.getFieldsError().flatMap((e) => e.errors);
                  return errors.length ? <Typography.Text type="danger">{errors[0]}</Typography.Text> : null;
                }}
              </Form.Item>
            </Form>
          ),
        },
      ]}
    />
  );
}

function FoldedInput({ secret, label, ...control }: { secret: boolean; label: string; value?: string }) {
  const Box = secret ? Input.Password : Input;
  return <Box {...control} autoComplete="off" aria-label={label} placeholder={label} className="lr-grow" />;
}
