import { genericSourceScreen, type SourcePage, type SourceScreen } from '@leadrelay/connectors/manifest';
import type { Integration } from '@leadrelay/shared';
import { SOURCE_STATE_PATH, useOwnState } from '../../lib/connectors/own-queries';

export type Source = SourcePage<string, string>;

/** The source's state as its cards read it: the manifest's reading, else the server's generic state. */
export const readSource = (
  source: Source | undefined,
  state: unknown,
  integration: Integration,
): SourceScreen<string> => (source?.read ? source.read(state) : genericSourceScreen(state, integration.isConnected));

/**
 * GET /api/integrations/:id/source read for the cards (one call for all of them); `screen` is null
 * while it loads or when it cannot be read, `error` says why.
 */
export function useSourceScreen(integration: Integration, source: Source | undefined) {
  const state = useOwnState(integration._id, SOURCE_STATE_PATH, true);
  if (state.isPending || state.isError) return { state, screen: null, error: state.error };
  try {
    return { state, screen: readSource(source, state.data, integration), error: null };
  } catch (error) {
    return { state, screen: null, error };
  }
}
