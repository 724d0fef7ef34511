import { LinkOutlined, SyncOutlined } from '@ant-design/icons';
import type { AccountSection, ConnectionCard, ConnectionSection } from '@leadrelay/connectors/manifest';
import type { ConnectionCheck, Integration } from '@leadrelay/shared';
import { Alert, Button, Card, Descriptions, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/errors';
import { useCheckConnectionMutation } from '../../lib/integrations/queries';
import { reasonText } from '../../lib/integrations/reasons';
import { useApp } from '../../lib/use-app';
import { ReasonDetails } from '../integrations/reason-details';
import { PermissionGuard } from '../permission-guard';
import { ReconnectDialog } from './connect-dialog';
import { useOAuthStart } from './connect-flow';
import { AccountRows, FoldedMethod, prefillOf, Snapshots, useAccount } from './connection-sections';
import { usePage } from './page-context';
import { StageWatchNote } from './stage-watch-note';

type Section = ConnectionSection<string, string>;

function SectionView({ integration, section }: { integration: Integration; section: Section }) {
  const { manifest } = usePage();
  switch (section.show) {
    case 'account':
      return <AccountRows integration={integration} section={section} />;
    case 'snapshots':
      return <Snapshots integration={integration} section={section} />;
    case 'stage-watch':
      return <StageWatchNote integration={integration} />;
    case 'method': {
      const method = manifest.page.connect?.methods.find((m) => m.key === section.method);
      return method?.kind === 'credentials' ? <FoldedMethod integration={integration} method={method} /> : null;
    }
  }
}

/** The connection's state with its reason, the button that connects (or again), the check; then the sections. */
export function ConnectionCardView({
  integration,
  card,
}: {
  integration: Integration;
  card: ConnectionCard<string, string>;
}) {
  const { t } = useTranslation('crm');
  const { manifest, say } = usePage();
  const { message } = useApp();
  const crm = manifest.name;
  const check = useCheckConnectionMutation(integration._id);
  const oauth = useOAuthStart(crm);
  const [dialog, setDialog] = useState(false);
  const [result, setResult] = useState<ConnectionCheck | null>(null);
  const first = manifest.page.connect?.methods[0];
  const account = card.sections?.find((s): s is AccountSection<string, string> => s.show === 'account');
  const accountAnswer = useAccount(integration, account).data;
  // Opened again the way it is connected now (never a secret); one object per answer, or typing would be undone.
  const prefill = useMemo(
    () => (first?.kind === 'credentials' && account ? prefillOf(accountAnswer, account.when, first) : undefined),
    [accountAnswer, account, first],
  );
  const connected = integration.isConnected;
  const broken = connected && integration.status === 'broken';

  const onCheck = async () => {
    try {
      setResult(await check.mutateAsync());
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };
  const onConnect = () => {
    if (first?.kind === 'oauth') void oauth.start(integration._id, first);
    else setDialog(true);
  };

  const tag = !connected ? (
    <Tag>{t('connection.notConnected')}</Tag>
  ) : broken ? (
    <Tag color="red">{t('connection.broken')}</Tag>
  ) : (
    <Tag color="green">{t('connection.connected')}</Tag>
  );

  return (
    <Card title={t('connection.title')}>
      <Descriptions column={1} size="small" className="lr-mb">
        <Descriptions.Item label={t('connection.status')}>{tag}</Descriptions.Item>
        {broken && integration.statusReason && (
          <Descriptions.Item label={t('connection.reason')}>
            <Typography.Text type="danger" className="lr-break">
              {reasonText(integration.statusReason)}
            </Typography.Text>
            <ReasonDetails reason={integration.statusReason} />
          </Descriptions.Item>
        )}
      </Descriptions>
      {!connected && (
        <Typography.Paragraph type="secondary" className="lr-hint">
          {t('connection.notConnectedHint', { crm })}
        </Typography.Paragraph>
      )}
      {result && (
        <Alert
          className="lr-mb"
          type={result.ok ? 'success' : 'error'}
          showIcon
          role="status"
          title={result.ok ? t('connection.checkOk') : t('connection.checkFailed')}
          description={result.ok ? undefined : result.reason && reasonText(result.reason)}
        />
      )}
      <div className="lr-actions lr-actions-split">
        {connected ? (
          <Button icon={<SyncOutlined aria-hidden />} onClick={onCheck} loading={check.isPending}>
            {t('connection.check')}
          </Button>
        ) : (
          <span />
        )}
        <PermissionGuard>
          <Button
            type={connected && !broken ? 'default' : 'primary'}
            icon={<LinkOutlined aria-hidden />}
            onClick={onConnect}
            loading={oauth.isPending}
          >
            {connected ? t('connection.reconnect') : t('connection.connect', { crm })}
          </Button>
        </PermissionGuard>
      </div>
      {card.sections?.map((section) => (
        <SectionView
          key={section.show === 'method' ? section.method : section.show}
          integration={integration}
          section={section}
        />
      ))}
      {first?.kind === 'credentials' && (
        <ReconnectDialog
          integration={integration}
          crm={crm}
          title={say(manifest.page.list.connect)}
          method={first}
          say={say}
          prefill={prefill}
          open={dialog}
          onClose={() => setDialog(false)}
        />
      )}
    </Card>
  );
}
