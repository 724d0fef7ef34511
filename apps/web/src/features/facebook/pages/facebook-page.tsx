import '../../../components/integrations/integrations.css';
import '../facebook.css';
import { ArrowLeftOutlined, FacebookFilled, UnorderedListOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Empty, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { PermissionGuard } from '../../../components/permission-guard';
import { errorMessage } from '../../../lib/errors';
import { localePath } from '../../../lib/locale';
import { useOAuthReturn } from '../../../lib/use-oauth-return';
import { ConnectionCard } from '../components/connection-card';
import { useFacebookConnect } from '../components/use-connect';
import { useFbConnectionsQuery } from '../queries';

/** /admin/integrations/facebook: Facebook connections, their pages (subscribe) and lead forms. */
export function FacebookPage() {
  const { t } = useTranslation('facebook');
  const { t: ti } = useTranslation('integrations');
  const navigate = useNavigate();
  const justConnected = useOAuthReturn({ done: t('connect.done'), failed: t('connect.failed') });
  const connections = useFbConnectionsQuery();
  const { connect, isPending } = useFacebookConnect();

  const connectButton = (
    <PermissionGuard>
      <Button type="primary" icon={<FacebookFilled aria-hidden />} onClick={connect} loading={isPending}>
        {t('connect.button')}
      </Button>
    </PermissionGuard>
  );

  return (
    <div className="lr-page">
      <Link to={localePath('/admin/integrations')} className="lr-back">
        <ArrowLeftOutlined aria-hidden /> {ti('page.allIntegrations')}
      </Link>
      <div className="lr-page-head">
        <div className="lr-min0">
          <Typography.Title level={2} className="lr-page-title">
            {t('title')}
          </Typography.Title>
          <Typography.Paragraph type="secondary">{t('subtitle')}</Typography.Paragraph>
        </div>
        <div className="lr-actions lr-fb-head-actions">
          <Button
            icon={<UnorderedListOutlined aria-hidden />}
            onClick={() => navigate(localePath('/admin/integrations/fb'))}
          >
            {t('list.open')}
          </Button>
          {connectButton}
        </div>
      </div>
      {connections.isPending && <Skeleton active />}
      {connections.isError && <Alert type="error" showIcon title={errorMessage(connections.error)} />}
      {connections.data?.length === 0 && (
        <Card>
          <Empty
            image={<FacebookFilled aria-hidden className="lr-empty-icon lr-fb-mark" />}
            description={
              <>
                <Typography.Title level={4}>{t('empty.title')}</Typography.Title>
                <Typography.Paragraph type="secondary" className="lr-empty-text">
                  {t('empty.text')}
                </Typography.Paragraph>
              </>
            }
          >
            {connectButton}
          </Empty>
        </Card>
      )}
      <div className="lr-fb-connections">
        {connections.data?.map((c) => (
          <ConnectionCard key={c._id} connection={c} highlight={c._id === justConnected} />
        ))}
      </div>
    </div>
  );
}
