// A source's parts under its connection (kit/manifest-source.ts): our receiver's subscription at the
// sender, and the periodic poll with "check now".
import type { PollSection, SourceScreen, SubscriptionSection } from '@leadrelay/connectors/manifest';
import type { Integration } from '@leadrelay/shared';
import { Alert, Button, Popconfirm, Typography } from 'antd';
import { useSourceCall } from '../../lib/connectors/own-queries';
import { errorMessage } from '../../lib/errors';
import { formatDateTime } from '../../lib/format';
import { useApp } from '../../lib/use-app';
import { reasonText } from '../integrations/status-tag';
import { PermissionGuard } from '../permission-guard';
import { type Say, valueWord } from './words';

type Read = (state: unknown) => SourceScreen<string>;

interface Props<S> {
  integration: Integration;
  section: S;
  screen: SourceScreen<string>;
  say: Say;
}

/** A call whose outcome is a toast: its word, or the error's. */
function useRun() {
  const { message } = useApp();
  return async (action: () => Promise<unknown>, done: string) => {
    try {
      await action();
      void message.success(done);
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };
}

export function SubscriptionView({ integration, section, screen, say }: Props<SubscriptionSection<string>>) {
  const run = useRun();
  const register = useSourceCall(integration._id, 'subscribe');
  const remove = useSourceCall(integration._id, 'unsubscribe');
  const w = section.words;
  const sub = screen.subscription ?? { status: 'none', registeredAt: null, removedAt: null };
  const active = sub.status === 'active';
  const text = active
    ? say(w.active, { date: formatDateTime(sub.registeredAt ?? '') })
    : sub.status === 'removed'
      ? say(w.removed, { date: formatDateTime(sub.removedAt ?? '') })
      : say(w.none);
  return (
    <section className="lr-source-section" data-testid="source-subscription" data-status={sub.status}>
      <Typography.Text strong>{say(w.title)}</Typography.Text>
      <Typography.Paragraph type={active ? undefined : 'warning'} className="lr-source-line">
        {text}
      </Typography.Paragraph>
      <div className="lr-source-buttons">
        <PermissionGuard>
          <Button
            type={active ? 'default' : 'primary'}
            loading={register.isPending}
            onClick={() => run(() => register.mutateAsync(), say(w.registered))}
          >
            {active ? say(w.registerAgain) : say(w.register)}
          </Button>
        </PermissionGuard>
        {active && (
          <PermissionGuard>
            <Popconfirm
              title={say(w.removeConfirm)}
              onConfirm={() => run(() => remove.mutateAsync(), say(w.removedOk))}
            >
              <Button danger loading={remove.isPending}>
                {say(w.remove)}
              </Button>
            </Popconfirm>
          </PermissionGuard>
        )}
      </div>
      {w.note && (
        <Typography.Paragraph type="secondary" className="lr-hint lr-source-line">
          {say(w.note)}
        </Typography.Paragraph>
      )}
    </section>
  );
}

export function PollView({
  integration,
  section,
  screen,
  say,
  slug,
  read,
}: Props<PollSection<string, string>> & { slug: string; read: Read }) {
  const { message } = useApp();
  const poll = useSourceCall(integration._id, 'poll');
  const w = section.words;
  const { lastRunAt, lastError } = screen.poll ?? { lastRunAt: null, lastError: null };
  // The poll's own codes in the connector's words; a server error code as everywhere else.
  const errorText = (code: string) => (w.errors && valueWord(slug, w.errors, code)) ?? reasonText(code);
  const onCheck = async () => {
    try {
      const { data } = await poll.mutateAsync();
      if (read(data).poll?.lastError) void message.warning(say(w.failed));
      else void message.success(say(w.checked));
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };
  return (
    <section className="lr-source-section" data-testid="source-poll">
      <Typography.Text strong>{say(w.title)}</Typography.Text>
      <Typography.Paragraph type="secondary" className="lr-source-line">
        {integration.active ? say(w.every) : say(w.inactive)}
      </Typography.Paragraph>
      <Typography.Paragraph className="lr-source-line">
        {lastRunAt ? say(w.last, { date: formatDateTime(lastRunAt) }) : say(w.never)}
      </Typography.Paragraph>
      {lastError && (
        <Alert className="lr-mb" type="warning" showIcon title={say(w.failed)} description={errorText(lastError)} />
      )}
      <PermissionGuard>
        <Button onClick={onCheck} loading={poll.isPending} disabled={!integration.active}>
          {say(w.now)}
        </Button>
      </PermissionGuard>
    </section>
  );
}
