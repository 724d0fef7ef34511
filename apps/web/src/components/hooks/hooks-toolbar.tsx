import { DeleteOutlined, RedoOutlined } from '@ant-design/icons';
import { HOOK_STATUSES, type HookStatus } from '@leadrelay/shared';
import { Button, Input, Popconfirm, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useHiddenActions } from '../../lib/query-behaviours';
import { PermissionGuard } from '../permission-guard';

interface Props {
  status: HookStatus | undefined;
  onStatus: (s: HookStatus | undefined) => void;
  onSearch: (s: string) => void;
  selected: number;
  total: number;
  busy: 'renew' | 'delete' | 'deleteAll' | null;
  onRenew: () => void;
  onDelete: () => void;
  onDeleteAll: () => void;
}

export function HooksToolbar(p: Props) {
  const { t } = useTranslation('hooks');
  const { isHidden } = useHiddenActions();
  return (
    <div className="lr-hooks-toolbar">
      <div className="lr-hooks-filters">
        <Select<HookStatus>
          allowClear
          className="lr-hooks-status-filter"
          placeholder={t('filters.status')}
          aria-label={t('filters.status')}
          value={p.status}
          onChange={(v) => p.onStatus(v ?? undefined)}
          options={HOOK_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
        />
        <Input.Search
          allowClear
          className="lr-hooks-search"
          placeholder={t('filters.search')}
          aria-label={t('filters.search')}
          maxLength={200}
          onSearch={(v) => p.onSearch(v.trim())}
        />
      </div>
      <div className="lr-hooks-actions">
        {p.selected > 0 && (
          <Typography.Text type="secondary" className="lr-nowrap">
            {t('actions.selected', { count: p.selected })}
          </Typography.Text>
        )}
        {!isHidden('renew') && (
          <PermissionGuard>
            <Button
              icon={<RedoOutlined aria-hidden />}
              disabled={!p.selected}
              loading={p.busy === 'renew'}
              onClick={p.onRenew}
            >
              {t('actions.renew')}
            </Button>
          </PermissionGuard>
        )}
        {!isHidden('delete') && (
          <Popconfirm
            title={t('actions.deleteConfirm', { count: p.selected })}
            onConfirm={p.onDelete}
            disabled={!p.selected}
          >
            <Button danger icon={<DeleteOutlined aria-hidden />} disabled={!p.selected} loading={p.busy === 'delete'}>
              {t('actions.delete')}
            </Button>
          </Popconfirm>
        )}
        {!isHidden('delete-all') && (
          <Popconfirm title={t('actions.deleteAllConfirm')} onConfirm={p.onDeleteAll} disabled={!p.total}>
            <Button danger type="text" disabled={!p.total} loading={p.busy === 'deleteAll'}>
              {t('actions.deleteAll')}
            </Button>
          </Popconfirm>
        )}
      </div>
    </div>
  );
}
