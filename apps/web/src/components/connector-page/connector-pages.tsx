import './connector-page.css';
import './crm-widgets.css';
import { LinkOutlined } from '@ant-design/icons';
import type { ConnectorManifest, PageCard, PageTab } from '@leadrelay/connectors/manifest';
import type { Integration } from '@leadrelay/shared';
import { Col, Row, Spin } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useManifest } from '../../lib/connectors/manifests';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useOAuthReturn } from '../../lib/use-oauth-return';
import { DestinationListPage } from '../integrations/destination-list-page';
import { DestinationShell, type ShellTab } from '../integrations/destination-shell';
import { GeneralCard } from '../integrations/general-card';
import { CollectionCardView } from './collection-card';
import { ConnectCardView } from './connect-card';
import { NewConnectionDialog } from './connect-dialog';
import { ConnectionCardView } from './connection-card';
import { CredentialsCardView } from './credentials-card';
import { FormCardView } from './form-card';
import { MappingCardView } from './mapping-card';
import { useNewConnection } from './new-connection';
import { OAuthReturnPage, returnMethodOf } from './oauth-return-page';
import { connectingCard, connectionTabOf, PageContext, type PageInfo } from './page-context';
import { RecordsCardView } from './records-card';
import { TestSendCardView } from './test-send-card';
import { UsersCardView } from './users-card';
import { WebhooksCardView } from './webhooks-card';
import { type Say, useConnectorWords } from './words';

type Page = NonNullable<ConnectorManifest['page']>;

interface Props {
  manifest: ConnectorManifest & { page: Page };
}

/** The type's name as said: its words' where it is no brand, else the brand. */
const typeLabel = (manifest: ConnectorManifest, say: Say) =>
  manifest.page?.name ? say(manifest.page.name) : manifest.name;

/** One card of a tab, drawn by its widget kind. */
function CardView({
  card,
  item,
  manifest,
  say,
  showState,
}: {
  card: PageCard<string, string>;
  item: Integration;
  manifest: ConnectorManifest;
  say: Say;
  /** Outside the connector's page: a card that connects says the integration's state itself. */
  showState?: boolean;
}) {
  switch (card.widget) {
    case 'general':
      return <GeneralCard integration={item} typeLabel={typeLabel(manifest, say)} />;
    case 'credentials':
      return <CredentialsCardView integration={item} card={card} say={say} showState={showState} />;
    case 'form':
      return <FormCardView integration={item} card={card} say={say} />;
    case 'records':
      return <RecordsCardView integrationId={item._id} slug={manifest.slug} card={card} say={say} />;
    case 'test-send':
      return <TestSendCardView integration={item} slug={manifest.slug} card={card} say={say} />;
    case 'connection':
      return <ConnectionCardView integration={item} card={card} />;
    case 'mapping':
      return <MappingCardView integration={item} card={card} />;
    case 'users':
      return <UsersCardView integration={item} card={card} />;
    case 'webhooks':
      return <WebhooksCardView integration={item} card={card} />;
    case 'connect':
      return <ConnectCardView integration={item} card={card} say={say} slug={manifest.slug} />;
    case 'collection':
      return <CollectionCardView integration={item} card={card} say={say} />;
    case 'stack':
      return (
        <Row gutter={[16, 16]}>
          {card.cards.map((inner, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the manifest's cards never change while shown
            <Col key={i} span={24}>
              <CardView card={inner} item={item} manifest={manifest} say={say} />
            </Col>
          ))}
        </Row>
      );
  }
}

/** A tab's cards side by side in their spans; a lone card without one takes the whole tab. */
function TabView({
  tab,
  item,
  manifest,
  say,
}: {
  tab: PageTab<string, string>;
  item: Integration;
  manifest: ConnectorManifest;
  say: Say;
}) {
  const [only] = tab.cards;
  if (only && tab.cards.length === 1 && !only.span)
    return <CardView card={only} item={item} manifest={manifest} say={say} />;
  return (
    <Row gutter={[16, 16]}>
      {tab.cards.map((card, i) => (
        // A tab's cards are the manifest's, fixed: their place is their identity.
        // biome-ignore lint/suspicious/noArrayIndexKey: the list never changes while shown
        <Col key={i} xs={24} {...card.span}>
          <CardView card={card} item={item} manifest={manifest} say={say} />
        </Col>
      ))}
    </Row>
  );
}

/** /admin/integrations/<slug> of a connector with a page: its connections, and a new one by name (and connected at once). */
export function ConnectorListPage({ manifest }: Props) {
  const say = useConnectorWords(manifest.slug);
  const { list, connect } = manifest.page;
  const created = useNewConnection(manifest.slug, manifest.name);
  const defaultName = list.defaultName ? say(list.defaultName) : typeLabel(manifest, say);
  useDocumentTitle(say(manifest.page.title));
  return (
    <DestinationListPage
      type={manifest.slug}
      title={typeLabel(manifest, say)}
      subtitle={say(list.subtitle)}
      connectLabel={say(list.connect)}
      defaultName={defaultName}
      empty={{ title: say(list.empty.title), text: say(list.empty.text), action: say(list.connect) }}
      icon={connect ? <LinkOutlined aria-hidden /> : undefined}
      dialog={
        connect
          ? ({ open, close }) => (
              <NewConnectionDialog
                crm={manifest.name}
                defaultName={defaultName}
                title={say(list.connect)}
                methods={connect.methods}
                say={say}
                open={open}
                busy={created.busy}
                step={created.step}
                onCancel={close}
                onSubmit={(connection) => {
                  void created.onCreate(connection).then((done) => done && close());
                }}
              />
            )
          : undefined
      }
    />
  );
}

/** The provider's return to the integration's page (?connected=1, ?error=CODE): said, and the address cleaned. */
function OAuthReturnToast({ crm }: { crm: string }) {
  const { t } = useTranslation('crm');
  useOAuthReturn({ done: t('connection.done', { crm }), failed: t('connection.failed', { crm }) });
  return null;
}

/**
 * /admin/integrations/<slug>/:id of a connector with a page: its tabs of cards; /…/connect, the
 * provider's return, when one of its ways comes back there.
 */
export function ConnectorDetailPage({ manifest }: Props) {
  const say = useConnectorWords(manifest.slug);
  const { id } = useParams();
  const { connect } = manifest.page;
  const info = useMemo<PageInfo>(
    () => ({ manifest, say, connectionTab: connectionTabOf(manifest.page) }),
    [manifest, say],
  );
  const returns = returnMethodOf(manifest.page);
  if (returns && id === 'connect') return <OAuthReturnPage page={info} exchange={returns.returns} />;
  return (
    <PageContext.Provider value={info}>
      <ConnectorDetail manifest={manifest} say={say} />
      {connect?.methods.some((m) => m.kind === 'oauth' && m.returns === 'page') && (
        <OAuthReturnToast crm={manifest.name} />
      )}
    </PageContext.Provider>
  );
}

function ConnectorDetail({ manifest, say }: Props & { say: Say }) {
  const { detail } = manifest.page;
  useDocumentTitle(say(manifest.page.title));
  return (
    <DestinationShell
      type={manifest.slug}
      typeName={typeLabel(manifest, say)}
      backLabel={say(detail.back)}
      notConnected={say(detail.notConnected)}
      tabs={(item): ShellTab[] =>
        detail.tabs.map((tab) => ({
          key: tab.key,
          label: say(tab.label),
          children: <TabView tab={tab} item={item} manifest={manifest} say={say} />,
        }))
      }
    />
  );
}

/**
 * The card of a connector's page that connects it (its credentials, its connection), for one
 * integration, outside the connector's own page: a product page that embeds a connector's connection
 * and settings. Nothing for a type whose manifest draws no page.
 */
export function ConnectorCard({ integration }: { integration: Integration }) {
  const manifest = useManifest(integration.type);
  const say = useConnectorWords(integration.type);
  const page = manifest?.page;
  const info = useMemo<PageInfo | null>(
    () => (manifest && page ? { manifest: { ...manifest, page }, say, connectionTab: connectionTabOf(page) } : null),
    [manifest, page, say],
  );
  if (manifest === undefined) return <Spin className="lr-spinner-inline" />;
  const card = page && connectingCard(page);
  if (!info || !card) return null;
  return (
    <PageContext.Provider value={info}>
      <CardView card={card} item={integration} manifest={info.manifest} say={say} showState />
    </PageContext.Provider>
  );
}
