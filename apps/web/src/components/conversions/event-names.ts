// The stage → event mapping as the settings keep it (packages/shared conversions.ts):
// { <pipeline id | '*'>: { <stage id | 'lead'>: <event name | null> } }. A name left empty is the
// default (the entry goes); null sends nothing for the stage. Keys are the CRM's ids: data, read with
// Object.hasOwn only.
import {
  CONVERSION_ANY_PIPELINE,
  CONVERSION_INITIAL_STAGE,
  type ConversionEvents,
  ZConversionSettingsBody,
} from '@leadrelay/shared';

/** A stage's entry: a name, null (not sent), or undefined (the default). */
export function entryOf(events: ConversionEvents, pipeline: string, stage: string): string | null | undefined {
  const stages = Object.hasOwn(events, pipeline) ? events[pipeline] : undefined;
  return stages && Object.hasOwn(stages, stage) ? stages[stage] : undefined;
}

/** The mapping with one stage's entry set (undefined: back to the default); a pipeline left empty goes. */
export function withEntry(
  events: ConversionEvents,
  pipeline: string,
  stage: string,
  value: string | null | undefined,
): ConversionEvents {
  const stages = new Map(Object.entries(Object.hasOwn(events, pipeline) ? (events[pipeline] ?? {}) : {}));
  if (value === undefined) stages.delete(stage);
  else stages.set(stage, value);
  const out = new Map(Object.entries(events));
  if (stages.size) out.set(pipeline, Object.fromEntries(stages));
  else out.delete(pipeline);
  return Object.fromEntries(out);
}

/** The mapping without a pipeline's own entries. */
export function withoutPipeline(events: ConversionEvents, pipeline: string): ConversionEvents {
  return Object.fromEntries(Object.entries(events).filter(([key]) => key !== pipeline));
}

/** The pipelines with entries of their own (not the '*' one). */
export const ownPipelines = (events: ConversionEvents): string[] =>
  Object.keys(events).filter((key) => key !== CONVERSION_ANY_PIPELINE);

/** The initial event's entry (sent when the lead is first delivered). */
export const initialEntry = (events: ConversionEvents) =>
  entryOf(events, CONVERSION_ANY_PIPELINE, CONVERSION_INITIAL_STAGE);

export const withInitial = (events: ConversionEvents, value: string | null | undefined) =>
  withEntry(events, CONVERSION_ANY_PIPELINE, CONVERSION_INITIAL_STAGE, value);

/** `<pipeline>/<stage>`: where a name's problem is shown. */
export const entryKey = (pipeline: string, stage: string) => `${pipeline}/${stage}`;

/**
 * The settings' problems before sending, checked with the shared schema the server runs: by entry
 * (`entryKey`) the error code of a name it refuses, and `dataset` when it is on without one.
 */
export function problemsOf(body: { enabled: boolean; datasetId: string | null; events: ConversionEvents }) {
  const problems = new Map<string, string>();
  if (body.enabled && !body.datasetId) problems.set('dataset', 'CONVERSIONS_DATASET_REQUIRED');
  const parsed = ZConversionSettingsBody.safeParse({
    enabled: body.enabled,
    datasetId: body.datasetId,
    events: body.events,
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const [root, pipeline, stage] = issue.path;
      const key =
        root === 'events' && typeof pipeline === 'string' && typeof stage === 'string'
          ? entryKey(pipeline, stage)
          : 'form';
      if (!problems.has(key)) problems.set(key, issue.message);
    }
  }
  return problems;
}
