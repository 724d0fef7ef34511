import { Button, Card, Descriptions, Empty, Spin, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ServerError } from '../../../components/server-error';
import { useMe } from '../../../lib/current-user';
import { formatDate, formatDateTime, formatNumber } from '../../../lib/format';
import { localePath } from '../../../lib/locale';
import { ClientActions, type ClientDialog } from '../components/client-actions';
import { ClientEditModal } from '../components/client-edit-modal';
import { ClientStatistic } from '../components/client-stats-drawer';
import { HardDeleteModal } from '../components/hard-delete-modal';
import { useClientsQuery } from '../queries';
import '../clients.css';

/**
 * /admin/user?search=<login or id>: one account on a page of its own (the clients table links
 * here): its profile, its statistics and the same actions. Without a match it points to the list.
 */
export function UserPage() {
  const { t } = useTranslation('clients');
  const [params] = useSearchParams();
  const search = params.get('search')?.trim() ?? '';
  const { data: me } = useMe();
  const query = useClientsQuery({ page: 1, limit: 1, search: search || undefined });
  const [dialog, setDialog] = useState<ClientDialog | null>(null);
  const client = search ? query.data?.data[0] : undefined;
  const back = (
    <Link to={localePath('/admin/clients')}>
      <Button>{t('user.toList')}</Button>
    </Link>
  );
  return (
    <div className="lr-page">
      <Typography.Title level={2} className="lr-page-title">
        {client ? client.login : t('user.title')}
      </Typography.Title>
      {query.isError && <ServerError error={query.error} />}
      {search && query.isPending ? (
        <Spin />
      ) : !client ? (
        <Card>
          <Empty description={search ? t('user.notFound', { search }) : t('user.pick')}>{back}</Empty>
        </Card>
      ) : (
        <>
          <Card
            title={t('user.profile')}
            extra={
              <ClientActions
                client={client}
                me={{ _id: me?._id ?? '', role: me?.role ?? 'client' }}
                // The statistics are on this page already: "Statistics" scrolls to them.
                onOpen={(kind) =>
                  kind === 'stats' ? document.querySelector('.lr-user-stats')?.scrollIntoView() : setDialog(kind)
                }
              />
            }
          >
            <Descriptions column={{ xs: 1, md: 2 }} size="small">
              <Descriptions.Item label={t('columns.status')}>
                {client.deletedAt ? (
                  <Tag>{t('status.deleted')}</Tag>
                ) : (
                  <Tag color={client.isActive ? 'green' : 'orange'}>
                    {t(client.isActive ? 'status.active' : 'status.inactive')}
                  </Tag>
                )}
              </Descriptions.Item>
              <Descriptions.Item label={t('columns.role')}>{t(`roles.${client.role}`)}</Descriptions.Item>
              <Descriptions.Item label={t('columns.plan')}>{client.planTitle ?? t('demo')}</Descriptions.Item>
              <Descriptions.Item label={t('columns.expDate')}>
                {client.expDate ? formatDate(client.expDate) : '—'}
              </Descriptions.Item>
              <Descriptions.Item label={t('columns.credit')}>{formatNumber(client.credit)}</Descriptions.Item>
              <Descriptions.Item label={t('columns.createdAt')}>{formatDateTime(client.createdAt)}</Descriptions.Item>
              <Descriptions.Item label={t('user.name')}>{client.name || '—'}</Descriptions.Item>
              <Descriptions.Item label={t('user.company')}>{client.company || '—'}</Descriptions.Item>
            </Descriptions>
          </Card>
          <Card title={t('user.statistics')} className="lr-user-stats">
            <ClientStatistic id={client._id} />
          </Card>
          {dialog === 'edit' && (
            <ClientEditModal client={client} isOwner={me?.role === 'owner'} onClose={() => setDialog(null)} />
          )}
          {dialog === 'hardDelete' && <HardDeleteModal client={client} onClose={() => setDialog(null)} />}
        </>
      )}
    </div>
  );
}
