import './connector-page.css';
import type { ConnectorManifest, PageCard, PageTab } from '@leadrelay/connectors/manifest';
import type { Integration } from '@leadrelay/shared';
import { Col, Row } from 'antd';
import { useDocumentTitle } from '../../lib/use-document-title';
import { DestinationListPage } from '../integrations/destination-list-page';
import { DestinationShell, type ShellTab } from '../integrations/destination-shell';
import { GeneralCard } from '../integrations/general-card';
import { CollectionCardView } from './collection-card';
import { ConnectCardView } from './connect-card';
import { CredentialsCardView } from './credentials-card';
import { FormCardView } from './form-card';
import { RecordsCardView } from './records-card';
import { TestSendCardView } from './test-send-card';
import { type Say, useConnectorWords } from './words';

type Page = NonNullable<ConnectorManifest['page']>;

interface Props {
  manifest: ConnectorManifest & { page: Page };
}

/** One card of a tab, drawn by its widget kind. */
function CardView({
  card,
  item,
  manifest,
  say,
}: {
  card: PageCard<string, string>;
  item: Integration;
  manifest: ConnectorManifest;
  say: Say;
}) {
  switch (card.widget) {
    case 'general':
      return <GeneralCard integration={item} typeLabel={manifest.name} />;
    case 'credentials':
      return <CredentialsCardView integration={item} card={card} say={say} />;
    case 'form':
      return <FormCardView integration={item} card={card} say={say} />;
    case 'records':
      return <RecordsCardView integrationId={item._id} slug={manifest.slug} card={card} say={say} />;
    case 'test-send':
      return <TestSendCardView integration={item} slug={manifest.slug} card={card} say={say} />;
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

/** /admin/integrations/<slug> of a connector with a page: its connections, and a new one by name. */
export function ConnectorListPage({ manifest }: Props) {
  const say = useConnectorWords(manifest.slug);
  const { list } = manifest.page;
  useDocumentTitle(say(manifest.page.title));
  return (
    <DestinationListPage
      type={manifest.slug}
      title={manifest.name}
      subtitle={say(list.subtitle)}
      connectLabel={say(list.connect)}
      defaultName={list.defaultName ? say(list.defaultName) : manifest.name}
      empty={list.empty && { title: say(list.empty.title), text: say(list.empty.text) }}
    />
  );
}

/** /admin/integrations/<slug>/:id of a connector with a page: its tabs of cards. */
export function ConnectorDetailPage({ manifest }: Props) {
  const say = useConnectorWords(manifest.slug);
  const { detail } = manifest.page;
  useDocumentTitle(say(manifest.page.title));
  return (
    <DestinationShell
      type={manifest.slug}
      typeName={manifest.name}
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
