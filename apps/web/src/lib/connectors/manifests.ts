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

/**
 * The manifest whose connector keeps a second page under /admin/integrations at this path (an
 * `accounts` list, kit/manifest-accounts.ts); null when none does. Every manifest is read, so it is
 * asked only for a path no connector's folder has.
 */
export async function loadByListPath(path: string): Promise<ConnectorManifest | null> {
  const all = await Promise.all([...LOADERS.values()].map((load) => load()));
  return all.find((m) => m.accounts?.listPath === path) ?? null;
}

/** The connector whose list page is at this path, for a path that is no folder's: `undefined` while they load. */
export function useListPathManifest(path: string): ConnectorManifest | null | undefined {
  const query = useQuery({
    queryKey: ['connector-list-path', path],
    queryFn: () => loadByListPath(path),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
    enabled: !LOADERS.has(path),
    initialData: LOADERS.has(path) ? null : undefined,
  });
  return query.isPending ? undefined : (query.data ?? null);
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
