// The connectors' logos (packages/connectors/src/<slug>/logo.ts): data of a few hundred bytes each,
// in the chunk of the picker that shows them all.
import type { ConnectorLogo } from '@leadrelay/connectors/manifest';
import { folderOf } from './folder';

const LOGOS = import.meta.glob<ConnectorLogo>('../../../../../packages/connectors/src/*/logo.ts', {
  import: 'logo',
  eager: true,
});

/** slug → logo; a Map, since a slug comes from the catalogue (an operator may name one `constructor`). */
export const CONNECTOR_LOGOS: ReadonlyMap<string, ConnectorLogo> = new Map(
  Object.entries(LOGOS).map(([path, logo]) => [folderOf(path), logo]),
);
