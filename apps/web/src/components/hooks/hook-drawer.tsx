import type { HookDetail, LeadAssignmentView, ReactionKind } from '@leadrelay/shared';
import { Alert, Button, Card, Collapse, Descriptions, Drawer, Empty, Skeleton, Space, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/errors';
import { formatDateTime, pretty } from '../../lib/hooks/format';
import { useHookQuery, useReactMutation } from '../../lib/hooks/queries';
import { leadFieldLabel } from '../../lib/lead-fields';
import { useApp } from '../../lib/use-app';
import { useIsMobile } from '../../lib/use-is-mobile';
import { AttemptsTimeline } from './attempts-timeline';
import { ConversionsSection } from './conversions-section';
import { ReactionTags } from './hook-cells';
import { HookNotes } from './hook-notes';
import { DeliveryStatusTag, HookStatusTag, LeadWarningTags, useReasonText } from './status-tags';

const KNOWN = ['name', 'phone', 'email', 'comment', 'utm', 'custom', 'assignee'] as const;

const show = (v: unknown): string =>
  v == null ? '' : typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);

function LeadFields({ lead }: { lead: HookDetail['lead'] }) {
  const { t } = useTranslation('hooks');
  if (!lead) return <Typography.Paragraph type="secondary">{t('detail.noLead')}</Typography.Paragraph>;
  const rows: { key: string; label: ReactNode; value: string }[] = [];
  const fields = lead;
  for (const key of ['name', 'phone', 'email', 'comment'] as const) {
    if (show(fields[key])) rows.push({ key, label: t(`detail.fields.${key}`), value: show(fields[key]) });
  }
  const utm = fields.utm as Record<string, unknown> | undefined;
  if (utm && typeof utm === 'object' && Object.keys(utm).length) {
    const value = Object.entries(utm)
      .map(([k, v]) => `${k}=${show(v)}`)
      .join(', ');
    rows.push({ key: 'utm', label: t('detail.fields.utm'), value });
  }
  const assignee = fields.assignee as { id?: string; name?: string } | undefined;
  if (assignee && typeof assignee === 'object') {
    rows.push({ key: 'assignee', label: t('detail.fields.assignee'), value: assignee.name || show(assignee.id) });
  }
  const custom = fields.custom as Record<string, unknown> | undefined;
  for (const [k, v] of Object.entries(custom && typeof custom === 'object' ? custom : {})) {
    rows.push({ key: `custom.${k}`, label: leadFieldLabel(k) ?? k, value: show(v) });
  }
  for (const [k, v] of Object.entries(fields)) {
    if (!(KNOWN as readonly string[]).includes(k) && show(v)) rows.push({ key: k, label: k, value: show(v) });
  }
  if (!rows.length) return <Typography.Text type="secondary">{t('detail.noFields')}</Typography.Text>;
  return (
    <Descriptions
      size="small"
      column={1}
      bordered
      className="lr-lead-fields"
      items={rows.map((r) => ({
        key: r.key,
        label: r.label,
        children: <span className="lr-break">{r.value}</span>,
      }))}
    />
  );
}

function HookDetailBody({ hook }: { hook: HookDetail }) {
  const { t } = useTranslation('hooks');
  const reasonText = useReasonText();
  return (
    <div className="lr-hook-detail">
      <Descriptions
        size="small"
        column={1}
        items={[
          { key: 'received', label: t('detail.received'), children: formatDateTime(hook.createdAt) },
          { key: 'integration', label: t('detail.integration'), children: hook.integration.name },
          {
            key: 'status',
            label: t('detail.status'),
            children: (
              <>
                <HookStatusTag status={hook.status} reason={hook.status === 'held' ? hook.reason : null} />
                <LeadWarningTags warnings={hook.warnings} />
              </>
            ),
          },
          ...(hook.lead
            ? [{ key: 'reaction', label: t('reactions.title'), children: <HookReactions hook={hook} /> }]
            : []),
          ...(hook.assignment
            ? [{ key: 'holders', label: t('holders.title'), children: <LeadHolders assignment={hook.assignment} /> }]
            : []),
          ...(hook.reason
            ? [
                {
                  key: 'reason',
                  label: t('detail.reason'),
                  children: <span className="lr-break">{reasonText(hook.reason)}</span>,
                },
              ]
            : []),
        ]}
      />

      <Typography.Title level={5}>{t('detail.lead')}</Typography.Title>
      <LeadFields lead={hook.lead} />

      <HookNotes hookId={hook._id} />

      <Collapse
        className="lr-mb lr-raw-request"
        size="small"
        items={[
          {
            key: 'request',
            label: t('detail.request'),
            children: (
              <>
                <Typography.Paragraph type="secondary">{t('detail.requestHint')}</Typography.Paragraph>
                <pre className="lr-trace">{pretty(hook.request)}</pre>
              </>
            ),
          },
        ]}
      />

      <Typography.Title level={5}>{t('detail.deliveries')}</Typography.Title>
      {hook.deliveries.length === 0 ? (
        <Typography.Text type="secondary">{t('detail.noDeliveries')}</Typography.Text>
      ) : (
        <Space orientation="vertical" size="middle" className="lr-full-width">
          {hook.deliveries.map((d) => (
            <Card
              key={d._id}
              size="small"
              data-testid="delivery-card"
              title={
                <span className="lr-delivery-title">
                  <span className="lr-break">{d.destination.name}</span> <DeliveryStatusTag status={d.status} />
                </span>
              }
              extra={<Typography.Text type="secondary">{t('detail.attempts', { count: d.attempts })}</Typography.Text>}
            >
              {d.status === 'pending' && d.nextAttemptAt && (
                <Typography.Paragraph>
                  {t('detail.nextAttempt', { time: formatDateTime(d.nextAttemptAt) })}
                </Typography.Paragraph>
              )}
              {d.deliveredAt && (
                <Typography.Paragraph>
                  {t('detail.deliveredAt', { time: formatDateTime(d.deliveredAt) })}
                </Typography.Paragraph>
              )}
              {d.externalId && (
                <Typography.Paragraph>{t('detail.externalId', { id: d.externalId })}</Typography.Paragraph>
              )}
              <AttemptsTimeline attempts={d.attemptsLog} />
            </Card>
          ))}
        </Space>
      )}

      <ConversionsSection type={hook.integration.type} conversions={hook.conversions ?? []} />
    </div>
  );
}

/** The lead of one hook with its raw request and, per destination, every attempt. */
export function HookDrawer({ hookId, onClose }: { hookId: string | null; onClose: () => void }) {
  const { t } = useTranslation('hooks');
  const mobile = useIsMobile();
  const query = useHookQuery(hookId);
  return (
    <Drawer
      open={Boolean(hookId)}
      onClose={onClose}
      title={t('detail.title')}
      size={mobile ? '100%' : 720}
      destroyOnHidden
      className="lr-hook-drawer"
    >
      {query.isPending ? (
        <Skeleton active />
      ) : query.isError ? (
        <Alert type="error" showIcon title={errorMessage(query.error)} />
      ) : query.data ? (
        <HookDetailBody hook={query.data} />
      ) : (
        <Empty />
      )}
    </Drawer>
  );
}

/**
 * The lead's reactions, and the buttons a manager working in LeadRelay presses instead of the
 * bot's: the first press of each kind stands, whoever makes it (the server keeps one per kind).
 */
function HookReactions({ hook }: { hook: HookDetail }) {
  const { t } = useTranslation('hooks');
  const react = useReactMutation();
  const { message } = useApp();
  const has = (kind: ReactionKind) => hook.reactions.some((r) => r.kind === kind);
  const press = (kind: ReactionKind) =>
    react.mutate(
      { id: hook._id, kind },
      {
        onSuccess: (result) => {
          if (!result.recorded)
            void message.info(t('reactions.alreadyTaken', { name: result.reaction.byName ?? t('reactions.someone') }));
        },
        onError: (err) => void message.error(errorMessage(err)),
      },
    );
  return (
    <Space wrap size={[8, 8]}>
      {hook.reactions.length ? (
        <ReactionTags reactions={hook.reactions} />
      ) : (
        <Typography.Text type="secondary">{t('reactions.none')}</Typography.Text>
      )}
      {!has('taken') && (
        <Button size="small" type="primary" loading={react.isPending} onClick={() => press('taken')}>
          {t('reactions.take')}
        </Button>
      )}
      {has('taken') && !has('called') && (
        <Button size="small" loading={react.isPending} onClick={() => press('called')}>
          {t('reactions.call')}
        </Button>
      )}
    </Space>
  );
}

/**
 * Who holds the lead now and who had it before, for a source that passes on a lead nobody takes
 * (issue 19): the holders oldest first, the current one last, and when it passes on next.
 */
function LeadHolders({ assignment }: { assignment: LeadAssignmentView }) {
  const { t } = useTranslation('hooks');
  const current = assignment.holders.at(-1);
  const before = assignment.holders.slice(0, -1);
  return (
    <div className="lr-lead-holders">
      {current && <div>{t('holders.now', { name: current.name, from: formatDateTime(current.from) })}</div>}
      {assignment.escalateAt && (
        <Typography.Text type="secondary">
          {t('holders.passesAt', { time: formatDateTime(assignment.escalateAt) })}
        </Typography.Text>
      )}
      {before.length > 0 && <Typography.Text type="secondary">{t('holders.before')}</Typography.Text>}
      {before.length > 0 && (
        <ol className="lr-lead-holders-before">
          {before.map((h) => (
            <li key={h.from}>
              {t('holders.was', {
                name: h.name,
                from: formatDateTime(h.from),
                until: h.until ? formatDateTime(h.until) : '',
              })}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
