// A destination's pipelines and their stages, read the way its manifest's `pipeline-stage` field
// reads them (kit/manifest.ts): which loader, and how its answer becomes pipelines. For screens
// besides the destination's own form that need a CRM's stages (issue 33's stage → event mapping).
import type { ConnectorManifest, Field, PageCard, Pipeline, PipelineStageField } from '@leadrelay/connectors/manifest';

function cardFields(card: PageCard<string, string>): Field<string>[] {
  if (card.widget === 'stack') return card.cards.flatMap(cardFields);
  if (card.widget !== 'form') return [];
  const open = (items: readonly Field<string>[]): Field<string>[] =>
    items.flatMap((f) => (f.kind === 'group' ? [f, ...open(f.items)] : [f]));
  return open(card.items.flatMap((item) => ('row' in item ? item.row : [item])));
}

/** Every settings field of a connector's page. */
function pageFields(manifest: ConnectorManifest): Field<string>[] {
  return (manifest.page?.detail.tabs ?? []).flatMap((tab) => tab.cards.flatMap(cardFields));
}

/** How a destination's pipelines are read: the loader for its saved settings, and the reader. */
export interface PipelineSource {
  list: string;
  read: (answer: unknown) => readonly Pipeline[];
}

/**
 * The loader and reader of the destination's pipeline field, for the integration's saved settings
 * (a field that chooses the loader, a CRM's leads or deals, read as saved, else its default);
 * null when its page has no pipeline field, or the saved choice has no pipelines.
 */
export function pipelineSourceOf(manifest: ConnectorManifest, settings: unknown): PipelineSource | null {
  const fields = pageFields(manifest);
  const field = fields.find((f): f is PipelineStageField<string> => f.kind === 'pipeline-stage');
  if (!field) return null;
  if (typeof field.list === 'string') return { list: field.list, read: field.read };
  const by = field.list;
  const saved = settings && typeof settings === 'object' ? (settings as Record<string, unknown>) : {};
  const chooser = fields.find((f) => f.name === by.field);
  const fallback = chooser && 'default' in chooser ? chooser.default : undefined;
  const value = Object.hasOwn(saved, by.field) ? saved[by.field] : fallback;
  const list = by.lists.find((l) => l.is === value)?.list;
  return list ? { list, read: field.read } : null;
}

/**
 * Whether the destination's CRM tells us of stage changes (speed to lead's watch, issue 19): its page
 * shows the watch, made by us (`stage-watch`) or by hand (a card reading …/crm-watch).
 */
export function reportsStages(manifest: ConnectorManifest): boolean {
  const visit = (card: PageCard<string, string>): boolean => {
    if (card.widget === 'stack') return card.cards.some(visit);
    if (card.widget === 'connection') return (card.sections ?? []).some((s) => s.show === 'stage-watch');
    if (card.widget === 'connect') return card.state?.path.endsWith('/crm-watch') ?? false;
    return false;
  };
  return (manifest.page?.detail.tabs ?? []).some((tab) => tab.cards.some(visit));
}
