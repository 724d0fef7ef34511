// A source's screen on the generic source integration page (ADR 014, "Sources"): the cards its
// manifest declares beside the general card, and its mapping tab's sample. No source is named here.
import './source.css';
import type { ConnectorManifest } from '@leadrelay/connectors/manifest';
import type { Integration } from '@leadrelay/shared';
import { Alert } from 'antd';
import { useState } from 'react';
import { MappingSection } from '../integrations/mapping-section';
import { ConnectCardView } from './connect-card';
import { SeenCardView } from './seen-card';
import type { Source } from './source-screen';
import { useConnectorWords } from './words';

interface Props {
  integration: Integration;
  manifest: ConnectorManifest & { source: Source };
}

/** The source's cards, one under another. */
export function SourceCards({ integration, manifest }: Props) {
  const say = useConnectorWords(manifest.slug);
  const { source } = manifest;
  return (
    <div className="lr-source-stack">
      {source.cards.map((card) =>
        card.widget === 'connect' ? (
          <ConnectCardView
            key={card.title}
            integration={integration}
            card={card}
            say={say}
            slug={manifest.slug}
            source={source}
          />
        ) : (
          <SeenCardView key={card.title} integration={integration} card={card} say={say} source={source} />
        ),
      )}
    </div>
  );
}

/**
 * The generic mapping editor with the source's typical item as its sample (the payload the server
 * makes of every item), so the incoming fields offered are what arrives; an edit lasts the visit.
 */
export function SourceMapping({ integration, manifest }: Props) {
  const say = useConnectorWords(manifest.slug);
  const mapping = manifest.source.mapping;
  const [edited, setEdited] = useState<string | null>(null);
  const sample = edited ?? JSON.stringify(mapping?.sample ?? {}, null, 2);
  return (
    <>
      {mapping?.note && <Alert className="lr-mb" type="info" showIcon title={say(mapping.note)} />}
      <MappingSection integration={integration} sample={sample} onSampleChange={setEdited} />
    </>
  );
}
