import { TeamOutlined } from '@ant-design/icons';
import type { UsersCard } from '@leadrelay/connectors/manifest';
import type { Collection, Integration } from '@leadrelay/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useConnectorLists } from '../../lib/connectors/queries';
import { errorMessage } from '../../lib/errors';
import { api } from '../../lib/http';
import { localePath } from '../../lib/locale';
import { useApp } from '../../lib/use-app';
import { PermissionGuard } from '../permission-guard';
import { DataCard } from './data-card';
import { RowList } from './row-list';

type User = { id: number; name: string; email?: string };

/** A distribution collection whose people are the CRM's users (the lead's assignee id is the user id). */
function useUsersCollection() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ name, users }: { name: string; users: readonly User[] }) =>
      api.post<Collection>('/api/legacy/api/admin/collection', {
        name,
        items: users.map((u) => ({ name: u.name, value: String(u.id) })),
      }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['collections'] }),
  });
}

/**
 * The CRM's users: who a lead can be assigned to. Distribution hands leads out in turn through a
 * collection whose values are these user ids; one click makes that collection.
 */
export function UsersCardView({ integration, card }: { integration: Integration; card: UsersCard }) {
  const { t } = useTranslation('crm');
  const { message } = useApp();
  const make = useUsersCollection();
  const answers = useConnectorLists(integration, [card.list]);
  const list = card.read(answers[0]?.data);

  const onMake = async () => {
    try {
      await make.mutateAsync({
        name: t('users.collectionName', { name: integration.name }).slice(0, 100),
        users: list,
      });
      void message.success(t('users.collectionCreated'));
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };

  return (
    <DataCard integration={integration} title={t('users.title')} queries={answers}>
      <Typography.Paragraph type="secondary" className="lr-hint">
        {t('users.hint')}
      </Typography.Paragraph>
      <RowList
        empty={t('users.empty')}
        items={list.map((u) => ({
          key: String(u.id),
          title: u.name,
          description: (
            <>
              ID <Typography.Text copyable>{String(u.id)}</Typography.Text>
              {u.email ? ` · ${u.email}` : ''}
            </>
          ),
        }))}
      />
      <div className="lr-actions lr-actions-split lr-mt">
        <Link to={localePath('/admin/collections')}>{t('users.collections')}</Link>
        <PermissionGuard>
          <Button
            icon={<TeamOutlined aria-hidden />}
            onClick={onMake}
            loading={make.isPending}
            disabled={list.length === 0}
          >
            {t('users.makeCollection')}
          </Button>
        </PermissionGuard>
      </div>
    </DataCard>
  );
}
