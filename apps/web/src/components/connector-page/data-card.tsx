import { ApiOutlined, LinkOutlined, ReloadOutlined } from '@ant-design/icons';
import type { Integration } from '@leadrelay/shared';
import { Alert, Button, Card, Empty, Skeleton, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/errors';
import { useTabParam } from '../../lib/use-tab-param';
import { usePage } from './page-context';

export interface Loadable {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

interface Props {
  integration: Integration;
  title: ReactNode;
  /** The loaders the card reads; the first failure shows in the card, with a retry. */
  queries: readonly Loadable[];
  children: ReactNode;
}

/** A card backed by the CRM's own data: "connect first" when not connected, never an error wall. */
export function DataCard({ integration, title, queries, children }: Props) {
  const { t } = useTranslation('crm');
  const { connectionTab } = usePage();
  const tab = useTabParam();
  const failed = queries.find((q) => q.isError);
  let body: ReactNode;
  if (!integration.isConnected) {
    body = (
      <Empty
        image={<ApiOutlined aria-hidden className="lr-empty-icon" />}
        description={
          <>
            <Typography.Text strong>{t('connectFirst.title')}</Typography.Text>
            <Typography.Paragraph type="secondary" className="lr-hint">
              {t('connectFirst.text')}
            </Typography.Paragraph>
          </>
        }
      >
        <Button type="primary" icon={<LinkOutlined aria-hidden />} onClick={() => tab.select(connectionTab)}>
          {t('connectFirst.action')}
        </Button>
      </Empty>
    );
  } else if (failed) {
    body = (
      <Alert
        type="warning"
        showIcon
        title={t('loadFailed')}
        description={errorMessage(failed.error)}
        action={
          <Button
            size="small"
            icon={<ReloadOutlined aria-hidden />}
            onClick={() => {
              for (const q of queries) if (q.isError) q.refetch();
            }}
          >
            {t('retry')}
          </Button>
        }
      />
    );
  } else if (queries.some((q) => q.isPending)) {
    body = <Skeleton active />;
  } else {
    body = children;
  }
  return <Card title={title}>{body}</Card>;
}
