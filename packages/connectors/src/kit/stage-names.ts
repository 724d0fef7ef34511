// A CRM stage's name for a stage change that names only its id (issue 33: the stage goes back to
// the ad platform under its name). The connector's pipelines list is read once per connection and
// kept a while; a stage the kept list does not know reads it again (a stage made since).
import { cacheOf } from './cache';
import type { ConnectorContext, CrmStage } from './types';

/** How long a pipelines list is trusted before it is read again. */
export const STAGE_NAMES_TTL_MS = 10 * 60_000;

export interface NamedStage {
  id: string;
  name: string;
  pipelineId?: string;
}

interface Kept {
  at: number;
  list?: Promise<NamedStage[]>;
}

const find = (list: NamedStage[], stage: CrmStage) =>
  list.find((s) => s.id === stage.id && (!stage.pipelineId || !s.pipelineId || s.pipelineId === stage.pipelineId))
    ?.name;

/** The stage's name from `load` (the CRM's stages, flat), kept per connection; undefined when unknown. */
export async function cachedStageName<Auth, Settings>(
  ctx: ConnectorContext<Auth, Settings>,
  load: () => Promise<NamedStage[]>,
  stage: CrmStage,
  now = Date.now(),
): Promise<string | undefined> {
  const kept = cacheOf(ctx).get<Kept>('kit:stage-names', () => ({ at: 0 }));
  if (kept.list && now - kept.at < STAGE_NAMES_TTL_MS) {
    const name = find(await kept.list.catch(() => []), stage);
    if (name) return name;
  }
  const list = load();
  kept.at = now;
  kept.list = list;
  try {
    return find(await list, stage);
  } catch (error) {
    // A failed read is not kept: the next change tries again.
    if (kept.list === list) kept.list = undefined;
    throw error;
  }
}
