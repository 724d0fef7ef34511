// The `connect` widget kind (kit/manifest-connect.ts): what the connection is now, read from a state
// path of ours, and the form that sends typed-in credentials once to a path that checks them with
// the service. On a source's page it reads the source's state and shows the source's sections.
import './source.css';
import { RobotOutlined, ShopOutlined } from '@ant-design/icons';
import type {
  ConnectCard,
  ConnectIcon,
  ConnectionView,
  DetailPiece,
  Field,
  FormItem,
  SourceScreen,
} from '@leadrelay/connectors/manifest';
import type { Integration } from '@leadrelay/shared';
import { Alert, Button, Card, Descriptions, Form, Skeleton, Space, Tag, Typography } from 'antd';
import { Fragment, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SOURCE_STATE_PATH, useOwnConnect, useOwnState } from '../../lib/connectors/own-queries';
import { errorMessage } from '../../lib/errors';
import { useApp } from '../../lib/use-app';
import { PermissionGuard } from '../permission-guard';
import { FormItems, fieldsOf, initialValues, outputValues } from './fields';
import { serverFieldErrors } from './server-errors';
import { readSource, type Source } from './source-screen';
import { PollView, SubscriptionView } from './source-sections';
import type { Values } from './use-settings-form';
import type { Say } from './words';

const ICONS: Record<ConnectIcon, ReactNode> = {
  shop: <ShopOutlined aria-hidden />,
  bot: <RobotOutlined aria-hidden />,
};

interface Props {
  integration: Integration;
  card: ConnectCard<string, string>;
  say: Say;
  slug: string;
  /** The source whose state a card without its own `state` reads. */
  source?: Source;
}

/** Choice options the state says are not offered now: disabled, with their other hint. */
function offered(items: readonly FormItem<string>[], view: ConnectionView<string>): FormItem<string>[] {
  const mark = (field: Field<string>): Field<string> => {
    const off = view.unavailable?.[field.name];
    if (!off?.length || !('options' in field)) return field;
    return {
      ...field,
      options: field.options.map((o) =>
        off.includes(o.value) ? { ...o, disabled: true, hint: o.hintUnavailable ?? o.hint } : o,
      ),
    };
  };
  return items.map((item) => ('row' in item ? { row: item.row.map(mark) } : mark(item)));
}

function Piece({ piece, say }: { piece: DetailPiece<string>; say: Say }) {
  if ('icon' in piece) return ICONS[piece.icon];
  if ('text' in piece && piece.copy) return <CopyText text={piece.text} />;
  if ('text' in piece)
    return piece.href ? (
      <Typography.Link href={piece.href} target="_blank" rel="noreferrer" className="lr-break">
        {piece.text}
      </Typography.Link>
    ) : (
      <span className="lr-break">{piece.text}</span>
    );
  const words = say(piece.word, piece.values);
  return piece.tag ? <Tag color={piece.tag}>{words}</Tag> : <span className="lr-break">{words}</span>;
}

/** A value to paste elsewhere (a webhook address, a key): as it is, in a monospace face, with a copy button. */
function CopyText({ text }: { text: string }) {
  const { t } = useTranslation('integrations');
  return (
    <Typography.Text
      className="lr-mono lr-break"
      copyable={{ text, tooltips: [t('webhook.copy'), t('webhook.copied')] }}
      data-testid="copy-value"
    >
      {text}
    </Typography.Text>
  );
}

function Details({ view, bordered, say }: { view: ConnectionView<string>; bordered?: boolean; say: Say }) {
  return (
    <Descriptions column={1} size="small" className="lr-mb" bordered={bordered}>
      {view.details.map((d) => (
        <Descriptions.Item key={d.label} label={say(d.label)}>
          {d.value.length === 1 ? (
            <Piece piece={d.value[0] as DetailPiece<string>} say={say} />
          ) : (
            <Space wrap>
              {d.value.map((piece, i) => (
                // A detail's pieces are fixed in order: their place is their identity.
                // biome-ignore lint/suspicious/noArrayIndexKey: the list never changes while shown
                <Fragment key={i}>
                  <Piece piece={piece} say={say} />
                </Fragment>
              ))}
            </Space>
          )}
        </Descriptions.Item>
      ))}
    </Descriptions>
  );
}

interface FormProps {
  integration: Integration;
  card: ConnectCard<string, string>;
  view: ConnectionView<string>;
  say: Say;
  state: { path: string; live: boolean; version?: string };
  onDone: () => void;
  onCancel?: () => void;
}

/**
 * The credentials, sent once and never shown again; a refusal that names a field goes onto it, any
 * other stays on the form until the values change.
 */
function ConnectForm({ integration, card, view, say, state, onDone, onCancel }: FormProps) {
  const { message } = useApp();
  const [form] = Form.useForm<Values>();
  const [failure, setFailure] = useState<string | null>(null);
  const connect = useOwnConnect(integration._id, card.submit, state);
  const items = offered(card.fields, view);
  const fields = fieldsOf(items);

  const onFinish = async () => {
    setFailure(null);
    try {
      await connect.mutateAsync(outputValues(fields, form.getFieldsValue(true) as Values));
      form.resetFields(fields.filter((f) => f.kind === 'secret').map((f) => f.name));
      void message.success(say(card.words.done));
      onDone();
    } catch (err) {
      const found = serverFieldErrors(err, fields);
      if (found.fields.length) form.setFields(found.fields as never);
      else setFailure(errorMessage(err));
    }
  };

  return (
    <Form<Values>
      form={form}
      layout="vertical"
      requiredMark={false}
      autoComplete="off"
      initialValues={initialValues(fields, { ...view.initial }, say)}
      onFinish={onFinish}
      onValuesChange={() => setFailure(null)}
      data-testid="connect-form"
    >
      <FormItems items={items} say={say} />
      {failure && <Alert className="lr-mb" type="error" showIcon role="alert" title={failure} />}
      <PermissionGuard>
        <Space wrap>
          <Button type="primary" htmlType="submit" loading={connect.isPending}>
            {say(card.words.submit)}
          </Button>
          {onCancel && <Button onClick={onCancel}>{say(card.words.cancel)}</Button>}
        </Space>
      </PermissionGuard>
    </Form>
  );
}

type Read = { view: ConnectionView<string>; screen: SourceScreen<string> | null } | { error: unknown };

/** The card's reading of its state: its own, or the source's (whose sections it shows too). */
function readConnection(
  card: ConnectCard<string, string>,
  source: Source | undefined,
  data: unknown,
  integration: Integration,
): Read {
  try {
    if (card.state) return { view: card.state.read(data), screen: null };
    const screen = readSource(source, data, integration);
    return { view: screen.connection, screen };
  } catch (error) {
    return { error };
  }
}

/** How the integration is connected, the form to connect or change it, and a source's sections. */
export function ConnectCardView({ integration, card, say, slug, source }: Props) {
  // A card's own state may depend on the integration's connection (a destination's): read again when it changes.
  const state = {
    path: card.state?.path ?? SOURCE_STATE_PATH,
    live: !card.state,
    version: card.state ? String(integration.isConnected) : undefined,
  };
  const answer = useOwnState(integration._id, state.path, state.live, state.version);
  const [editing, setEditing] = useState(false);
  const title = card.mark ? (
    <span>
      <span style={card.mark.color ? { color: card.mark.color } : undefined}>{ICONS[card.mark.icon]}</span>{' '}
      {say(card.title)}
    </span>
  ) : (
    say(card.title)
  );

  if (answer.isPending)
    return (
      <Card title={title}>
        <Skeleton active />
      </Card>
    );
  const read = answer.isError ? { error: answer.error } : readConnection(card, source, answer.data, integration);
  if ('error' in read)
    return (
      <Card title={title}>
        <Alert type="error" showIcon title={errorMessage(read.error)} />
      </Card>
    );
  const { view, screen } = read;

  return (
    <Card title={title} data-testid="connect-card">
      {(view.connected || view.detailsFirst) && <Details view={view} bordered={card.bordered} say={say} />}
      {!view.connected && card.intro && <Typography.Paragraph type="secondary">{say(card.intro)}</Typography.Paragraph>}
      {card.stateOnly ? null : view.connected && !editing ? (
        <PermissionGuard>
          <Button onClick={() => setEditing(true)}>{say(card.words.change)}</Button>
        </PermissionGuard>
      ) : (
        <ConnectForm
          integration={integration}
          card={card}
          view={view}
          say={say}
          state={state}
          onDone={() => setEditing(false)}
          onCancel={view.connected ? () => setEditing(false) : undefined}
        />
      )}
      {!view.connected && card.next && <Alert className="lr-mt" type="info" showIcon title={say(card.next)} />}
      {view.connected &&
        screen &&
        card.sections?.map((section) =>
          section.section === 'subscription' ? (
            <SubscriptionView
              key="subscription"
              integration={integration}
              section={section}
              screen={screen}
              say={say}
            />
          ) : (
            <PollView
              key="poll"
              integration={integration}
              section={section}
              screen={screen}
              say={say}
              slug={slug}
              read={(state) => readSource(source, state, integration)}
            />
          ),
        )}
    </Card>
  );
}
