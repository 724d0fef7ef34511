import '../../components/integrations/integrations.css';
import { ArrowLeftOutlined } from '@ant-design/icons';
import type { Integration } from '@leadrelay/shared';
import { Alert, Result, Skeleton, Tabs, type TabsProps, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useParams } from 'react-router';
import { errorMessage } from '../../lib/errors';
import { HttpError } from '../../lib/http';
import { integrationPath } from '../../lib/integrations/integration-path';
import { useAllIntegrationsQuery, useIntegrationQuery } from '../../lib/integrations/queries';
import { sourcesOf } from '../../lib/integrations/sources-of';
import { localePath } from '../../lib/locale';
import { useTabParam } from '../../lib/use-tab-param';
import { StateAlert } from './state-alert';
import { StatusTag } from './status-tag';

export type ShellTab = NonNullable<TabsProps['items']>[number] & { key: string };

interface Props {
  type: string;
  typeName: string;
  /** The back link's text ("All <brand> connections"). */
  backLabel: string;
  /** Shown until the connection has its credentials. */
  notConnected: string;
  tabs: (integration: Integration) => ShellTab[];
  /** Above the tabs. */
  banner?: (integration: Integration) => ReactNode;
}

/** The sources whose leads come here, each a link to its page; or that none does yet and how one will. */
function SentFrom({ id }: { id: string }) {
  const { t } = useTranslation('integrations');
  const all = useAllIntegrationsQuery();
  if (!all.data) return null;
  const sources = sourcesOf(all.data, id);
  return (
    <Typography.Paragraph data-testid="sent-from">
      {sources.length === 0 ? (
        <Typography.Text type="secondary">{t('sentFrom.none')}</Typography.Text>
      ) : (
        <>
          <Typography.Text type="secondary">{t('sentFrom.title', { count: sources.length })}</Typography.Text>{' '}
          {sources.map((s, i) => (
            <span key={s._id}>
              {i > 0 && ', '}
              <Link to={integrationPath(s)} className="lr-break">
                {s.name}
              </Link>
            </span>
          ))}
        </>
      )}
    </Typography.Paragraph>
  );
}

/**
 * /admin/integrations/<type>/:id of a destination with its own screens: back link, name and
 * status, the broken connection's reason in the user's language, tabs kept in the URL.
 */
export function DestinationShell({ type, typeName, backLabel, notConnected, tabs, banner }: Props) {
  const { t } = useTranslation('integrations');
  const { id = '' } = useParams();
  const tab = useTabParam();
  const integration = useIntegrationQuery(id);

  const back = (
    <Link to={localePath(`/admin/integrations/${type}`)} className="lr-back">
      <ArrowLeftOutlined aria-hidden /> {backLabel}
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
          title={missing ? t('page.notFound') : errorMessage(integration.error)}
          extra={<Link to={localePath(`/admin/integrations/${type}`)}>{backLabel}</Link>}
        />
      </div>
    );
  }
  const item = integration.data;
  if (item.type !== type) return <Navigate to={integrationPath(item)} replace />;

  const items = tabs(item);
  const { requested } = tab;
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
            <span>{typeName}</span>
            <StatusTag integration={item} withReason={false} />
          </Typography.Paragraph>
        </div>
      </div>
      {item.kind === 'destination' && <SentFrom id={item._id} />}
      {banner?.(item)}
      {item.state.code === 'not_connected' ? (
        <Alert className="lr-mb" type="info" showIcon title={notConnected} />
      ) : (
        <StateAlert state={item.state} />
      )}
      <Tabs activeKey={activeKey} onChange={tab.select} items={items} />
    </div>
  );
}
