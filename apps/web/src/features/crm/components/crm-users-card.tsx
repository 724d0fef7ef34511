import { TeamOutlined } from '@ant-design/icons';
import type { Integration } from '@leadrelay/shared';
import { Button, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PermissionGuard } from '../../../components/permission-guard';
import { errorMessage } from '../../../lib/errors';
import { localePath } from '../../../lib/locale';
import { useApp } from '../../../lib/use-app';
import type { CrmUser } from '../api';
import { useUsersCollectionMutation } from '../queries';
import { CrmDataCard } from './crm-data-card';
import { RowList } from './row-list';

interface Loaded {
  data: CrmUser[] | undefined;
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

/**
 * The CRM's users: who a lead can be assigned to. Distribution hands leads out in turn through a
 * collection whose values are these user ids; one click makes that collection.
 */
export function CrmUsersCard({ integration, users }: { integration: Integration; users: Loaded }) {
  const { t } = useTranslation('crm');
  const { message } = useApp();
  const make = useUsersCollectionMutation();
  const list = users.data ?? [];

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
    <CrmDataCard integration={integration} title={t('users.title')} queries={[users]}>
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
    </CrmDataCard>
  );
}
