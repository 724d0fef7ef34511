// The `seen` widget kind (kit/manifest-source.ts): the items a source has seen (a shop's orders),
// newest first, each with what became of its lead: a table on a wide screen, a list on a phone.
import './source.css';
import type { SeenCard, SeenItem } from '@leadrelay/connectors/manifest';
import type { HookStatus, Integration } from '@leadrelay/shared';
import { Alert, Card, Empty, Skeleton, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnType } from 'antd/es/table';
import { errorMessage } from '../../lib/errors';
import { formatDateTime, formatNumber, intlLocale } from '../../lib/format';
import { useIsMobile } from '../../lib/use-is-mobile';
import { HookStatusTag } from '../hooks/status-tags';
import { type Source, useSourceScreen } from './source-screen';
import type { Say } from './words';

type Spec = SeenCard<string>;

/** "4 500,00 грн" / "UAH 4,500.00"; an amount in a currency Intl does not know keeps its code. */
export function formatAmount(total: string | null | undefined, currency: string | null | undefined): string {
  if (total === null || total === undefined) return '—';
  const amount = Number(total);
  if (!Number.isFinite(amount)) return total;
  if (currency && /^[A-Z]{3}$/.test(currency)) {
    try {
      return new Intl.NumberFormat(intlLocale(), { style: 'currency', currency }).format(amount);
    } catch {
      // an unknown code: shown as written below
    }
  }
  return `${formatNumber(amount)}${currency ? ` ${currency}` : ''}`;
}

const amountOf = (card: Spec, item: SeenItem) =>
  card.amount
    ? formatAmount(item.summary[card.amount.field], card.amount.currency ? item.summary[card.amount.currency] : null)
    : null;

function Came({ card, item, say }: { card: Spec; item: SeenItem; say: Say }) {
  const via = item.via === 'webhook' ? say(card.lead.webhook) : say(card.lead.poll);
  if (item.timesSeen <= 1) return <span>{via}</span>;
  const times = say(card.lead.times, { count: item.timesSeen });
  return (
    <span className="lr-source-came">
      {via}
      <Tooltip title={say(card.lead.repeats, { times })}>
        <Tag className="lr-source-times" data-testid="times-seen">
          × {item.timesSeen}
        </Tag>
      </Tooltip>
    </span>
  );
}

function Lead({ card, item, say }: { card: Spec; item: SeenItem; say: Say }) {
  if (!item.status) return <Typography.Text type="secondary">{say(card.lead.noHook)}</Typography.Text>;
  return <HookStatusTag status={item.status as HookStatus} />;
}

function columnsOf(card: Spec, say: Say): ColumnType<SeenItem>[] {
  const columns: ColumnType<SeenItem>[] = [
    {
      title: say(card.item.title),
      key: 'item',
      render: (_: unknown, o) => (
        <div className="lr-source-cell">
          <Typography.Text strong className="lr-nowrap">
            {say(card.item.name, { id: o.id })}
          </Typography.Text>
          <Typography.Text type="secondary" className="lr-nowrap">
            {formatDateTime(o.at)}
          </Typography.Text>
        </div>
      ),
    },
  ];
  const { who, amount } = card;
  if (who) {
    const [first, ...rest] = who.fields;
    columns.push({
      title: say(who.title),
      key: 'who',
      render: (_: unknown, o) => (
        <div className="lr-source-cell">
          <span>{(first && o.summary[first]) ?? '—'}</span>
          {rest.map(
            (f) =>
              o.summary[f] && (
                <Typography.Text key={f} type="secondary" className="lr-nowrap">
                  {o.summary[f]}
                </Typography.Text>
              ),
          )}
        </div>
      ),
    });
  }
  if (amount)
    columns.push({
      title: say(amount.title),
      key: 'amount',
      align: 'right',
      render: (_: unknown, o) => <span className="lr-nowrap">{amountOf(card, o)}</span>,
    });
  columns.push({
    title: say(card.lead.title),
    key: 'lead',
    render: (_: unknown, o) => (
      <div className="lr-source-cell">
        <Lead card={card} item={o} say={say} />
        <Typography.Text type="secondary">
          <Came card={card} item={o} say={say} />
        </Typography.Text>
      </div>
    ),
  });
  return columns;
}

interface Props {
  integration: Integration;
  card: Spec;
  say: Say;
  source?: Source;
}

export function SeenCardView({ integration, card, say, source }: Props) {
  const mobile = useIsMobile();
  const { state, screen, error } = useSourceScreen(integration, source);
  const empty = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={say(card.empty)} />;
  if (state.isPending)
    return (
      <Card title={say(card.title)}>
        <Skeleton active />
      </Card>
    );
  if (!screen)
    return (
      <Card title={say(card.title)}>
        <Alert type="error" showIcon title={errorMessage(error)} />
      </Card>
    );
  const items = [...screen.items];

  return (
    <Card title={say(card.title)} data-testid="source-items">
      {mobile ? (
        items.length === 0 ? (
          empty
        ) : (
          <ul className="lr-source-items">
            {items.map((o) => (
              <li key={o.id} className="lr-source-item" data-testid="source-item">
                <div className="lr-source-item-head">
                  <Typography.Text strong>{say(card.item.name, { id: o.id })}</Typography.Text>
                  {card.amount && <Typography.Text strong>{amountOf(card, o)}</Typography.Text>}
                </div>
                {card.who && (
                  <div className="lr-break">
                    {card.who.fields
                      .map((f) => o.summary[f])
                      .filter(Boolean)
                      .join(' · ') || '—'}
                  </div>
                )}
                <div className="lr-source-item-foot">
                  <Typography.Text type="secondary">{formatDateTime(o.at)}</Typography.Text>
                  <Came card={card} item={o} say={say} />
                  <Lead card={card} item={o} say={say} />
                </div>
              </li>
            ))}
          </ul>
        )
      ) : (
        <Table<SeenItem>
          rowKey="id"
          size="small"
          pagination={false}
          dataSource={items}
          locale={{ emptyText: empty }}
          onRow={() => ({ 'data-testid': 'source-item' }) as React.HTMLAttributes<HTMLElement>}
          columns={columnsOf(card, say)}
        />
      )}
    </Card>
  );
}
