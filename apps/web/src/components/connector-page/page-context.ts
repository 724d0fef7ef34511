import type { ConnectorManifest, PageCard } from '@leadrelay/connectors/manifest';
import { createContext, useContext } from 'react';
import type { Say } from './words';

type Page = NonNullable<ConnectorManifest['page']>;

/** What every widget of a connector's page may ask: its manifest, its words, the tab that connects it. */
export interface PageInfo {
  manifest: ConnectorManifest & { page: Page };
  say: Say;
  /** The tab of the card that makes the connection ("connect first" leads there). */
  connectionTab: string;
}

export const PageContext = createContext<PageInfo | null>(null);

export function usePage(): PageInfo {
  const page = useContext(PageContext);
  if (!page) throw new Error('a connector page widget outside ConnectorDetailPage');
  return page;
}

const connects = (card: PageCard<string, string>): boolean =>
  card.widget === 'stack'
    ? card.cards.some(connects)
    : card.widget === 'connection' || card.widget === 'credentials' || card.widget === 'connect';

/** The key of the first tab holding a card that connects, else the first tab's. */
export const connectionTabOf = (page: Page): string =>
  (page.detail.tabs.find((tab) => tab.cards.some(connects)) ?? page.detail.tabs[0])?.key ?? '';

/** The first card of the page that connects (a stack's inner one), if it has one. */
export function connectingCard(page: Page): PageCard<string, string> | undefined {
  for (const tab of page.detail.tabs)
    for (const card of tab.cards) {
      if (card.widget === 'stack') {
        const inner = card.cards.find(connects);
        if (inner) return inner;
      } else if (connects(card)) return card;
    }
  return undefined;
}
