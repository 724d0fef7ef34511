import type { Hook } from '@leadrelay/shared';
import { Checkbox, Typography } from 'antd';
import { formatDateTime } from '../../lib/hooks/format';
import { DeliveryChips, LeadCell } from './hook-cells';
import { HookStatusTag, LeadWarningTags } from './status-tags';

interface Props {
  hooks: Hook[];
  showIntegration: boolean;
  selectable: boolean;
  selected: string[];
  onSelect: (id: string, checked: boolean) => void;
  onOpen: (id: string) => void;
}

/** Phones: one card per hook instead of a wide table. */
export function HooksCards({ hooks, showIntegration, selectable, selected, onSelect, onOpen }: Props) {
  return (
    <ul className="lr-hook-cards">
      {hooks.map((hook) => (
        <li key={hook._id} className="lr-hook-card" data-testid="hook-row">
          <div className="lr-hook-card-head">
            {selectable && (
              <Checkbox
                checked={selected.includes(hook._id)}
                onChange={(e) => onSelect(hook._id, e.target.checked)}
                aria-label={hook._id}
              />
            )}
            <Typography.Text type="secondary" className="lr-hook-card-time">
              {formatDateTime(hook.createdAt)}
            </Typography.Text>
            <HookStatusTag status={hook.status} reason={hook.reason} />
            <LeadWarningTags warnings={hook.warnings} />
          </div>
          <button type="button" className="lr-hook-card-body" onClick={() => onOpen(hook._id)}>
            <LeadCell hook={hook} />
            {showIntegration && <Typography.Text type="secondary">{hook.integration.name}</Typography.Text>}
          </button>
          {hook.deliveries.length > 0 && <DeliveryChips hook={hook} />}
        </li>
      ))}
    </ul>
  );
}
