import '../../../components/integrations/integrations.css';
import '../crm.css';
import { ArrowLeftOutlined } from '@ant-design/icons';
import type { Integration } from '@leadrelay/shared';
import { Alert, Result, Skeleton, Tabs, type TabsProps, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useSearchParams } from 'react-router';
import { reasonText, StatusTag } from '../../../components/integrations/status-tag';
import { errorMessage } from '../../../lib/errors';
import { HttpError } from '../../../lib/http';
import { integrationPath } from '../../../lib/integrations/integration-path';
import { useIntegrationQuery } from '../../../lib/integrations/queries';
import { localePath } from '../../../lib/locale';

export type TabItem = NonNullable<TabsProps['items']>[number] & { key: string };

interface Props {
  id: string;
  type: 'amocrm' | 'pipedrive';
  crmName: string;
  tabs: (integration: Integration) => TabItem[];
  /** Above the tabs, e.g. the return from the CRM's authorisation. */
  banner?: ReactNode;
}

/** The frame of a CRM integration page: back link, name and status, broken-connection alert, tabs in the URL. */
export function CrmPageShell({ id, type, crmName, tabs, banner }: Props) {
  const { t } = useTranslation('crm');
  const { t: ti } = useTranslation('integrations');
  const [params, setParams] = useSearchParams();
  const integration = useIntegrationQuery(id);

  const back = (
    <Link to={localePath(`/admin/integrations/${type}`)} className="lr-back">
      <ArrowLeftOutlined /> {t('page.back', { crm: crmName })}
    </Link>
  );
  if (integration.isPending) return <Skeleton active className="lr-page" />;
  if (integration.isError) {
    const missing = integration.error instanceof HttpError && integration.error.status === 404;
    return (
      <div className="lr-page">
        {back}
        <Result
          status={missing ? '404' : 'error'}
          title={missing ? ti('page.notFound') : errorMessage(integration.error)}
          extra={<Link to={localePath(`/admin/integrations/${type}`)}>{t('page.back', { crm: crmName })}</Link>}
        />
      </div>
    );
  }
  const item = integration.data;
  // Another type's id (an old link) goes to that type's own page.
  if (item.type !== type) return <Navigate to={integrationPath(item)} replace />;

  const items = tabs(item);
  const requested = params.get('tab') ?? '';
  const activeKey = items.some((i) => i.key === requested) ? requested : items[0]?.key;

  return (
    <div className="lr-page">
      {back}
      <div className="lr-page-head">
        <div className="lr-min0">
          <Typography.Title level={2} className="lr-page-title lr-break">
            {item.name}
          </Typography.Title>
          <Typography.Paragraph type="secondary" className="lr-int-subtitle">
            <span>{crmName}</span>
            {item.isConnected ? (
              <StatusTag integration={item} withReason={false} />
            ) : (
              <span className="lr-muted-tag">{t('connection.notConnected')}</span>
            )}
            {!item.active && <span className="lr-muted-tag">{ti('status.inactive')}</span>}
          </Typography.Paragraph>
        </div>
      </div>
      {banner}
      {item.isConnected && item.status === 'broken' && (
        <Alert
          className="lr-mb"
          type="error"
          showIcon
          title={ti('page.brokenTitle')}
          description={item.statusReason ? reasonText(item.statusReason) : undefined}
        />
      )}
      {!item.isConnected && (
        <Alert className="lr-mb" type="info" showIcon title={t('page.notConnected', { crm: crmName })} />
      )}
      <Tabs
        activeKey={activeKey}
        onChange={(key) =>
          setParams(
            (p) => {
              p.set('tab', key);
              return p;
            },
            { replace: true },
          )
        }
        items={items}
      />
    </div>
  );
}
