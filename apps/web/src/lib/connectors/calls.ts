// A connector's own calls as its manifest declares them (kit/manifest.ts ServerCall): the path with
// the integration's id in place of `:id`, the id and the page's language in the body where asked.
// No web file names a path of a connector's: they are the manifest's data.
import type { ServerCall } from '@leadrelay/connectors/manifest';
import { ownValue } from '@leadrelay/shared';
import { http } from '../http';
import { currentLocale } from '../locale';

/** The call's path for this integration. */
export const callPath = (call: ServerCall, id: string): string => call.path.replace(':id', encodeURIComponent(id));

/** What `with` adds to a body: the integration's id and the page's language under the names the call gives. */
function withValues(call: ServerCall, id: string): [string, unknown][] {
  const out: [string, unknown][] = [];
  if (call.with?.id) out.push([call.with.id, id]);
  if (call.with?.locale) out.push([call.with.locale, currentLocale()]);
  return out;
}

/**
 * Makes the call for integration `id`: a POST sends `body` with what `with` adds; a GET or DELETE
 * sends `query` (a webhook's id). Answers the parsed JSON.
 */
export function runCall<T = unknown>(
  call: ServerCall,
  id: string,
  body: Record<string, unknown> = {},
  query?: Record<string, string>,
): Promise<T> {
  const path = callPath(call, id);
  if (call.method !== 'POST') return http<T>(path, { method: call.method, query });
  return http<T>(path, { method: 'POST', body: { ...Object.fromEntries(withValues(call, id)), ...body } });
}

/** Calls in turn, each after the first sent the answer before it (a state, then the consent's address). */
export async function runChain(calls: readonly ServerCall[], id: string): Promise<unknown> {
  let answer: unknown;
  for (const [i, call] of calls.entries()) {
    const previous = i > 0 && answer && typeof answer === 'object' ? (answer as Record<string, unknown>) : {};
    answer = await runCall(call, id, previous);
  }
  return answer;
}

/** A string field of an answer (the consent page's address), or undefined. */
export function answerField(answer: unknown, field: string): string | undefined {
  const value = ownValue(answer, field);
  return typeof value === 'string' ? value : undefined;
}
