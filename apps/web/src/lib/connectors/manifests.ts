// The connectors' manifests (packages/connectors/src/<slug>/manifest.ts, ADR 014), found by folder:
// no web file names a connector. Each is its own chunk, loaded when its page opens.
import type { ConnectorManifest } from '@leadrelay/connectors/manifest';
import { useQuery } from '@tanstack/react-query';
import { folderOf } from './folder';

const MANIFESTS = import.meta.glob<ConnectorManifest>(
  // kit/manifest.ts is the manifests' types, no connector's.
  ['../../../../../packages/connectors/src/*/manifest.ts', '!../../../../../packages/connectors/src/kit/manifest.ts'],
  { import: 'manifest' },
);

const LOADERS = new Map(Object.entries(MANIFESTS).map(([path, load]) => [folderOf(path), load]));

/** The manifest of a connector slug; null for a type that is no connector (webhook, parser) or unknown. */
export async function loadManifest(slug: string): Promise<ConnectorManifest | null> {
  const load = LOADERS.get(slug);
  return load ? load() : null;
}

/** The manifest of the route's type: `undefined` while its chunk loads. */
export function useManifest(slug: string): ConnectorManifest | null | undefined {
  const query = useQuery({
    queryKey: ['connector-manifest', slug],
    queryFn: () => loadManifest(slug),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
    // A type that is no connector has none: known at once, no chunk to wait for.
    initialData: LOADERS.has(slug) ? undefined : null,
  });
  return query.isPending ? undefined : (query.data ?? null);
}
