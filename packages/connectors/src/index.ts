// The explicit list of connectors (architecture: no codegen registry).
import type { ConnectorDefinition } from './kit/types';

export { defineConnector } from './kit/define-connector';
export { PermanentError, RetryableError } from './kit/errors';
export type * from './kit/types';

// biome-ignore lint/suspicious/noExplicitAny: connectors differ in their auth and settings types
const list: ConnectorDefinition<any, any>[] = [];

export const connectors: ReadonlyMap<string, ConnectorDefinition<unknown, unknown>> = new Map(
  list.map((c) => [c.slug, c]),
);

/** The connector of an integration type, or undefined while it is not built (its type stays hidden). */
export function getConnector(slug: string): ConnectorDefinition<unknown, unknown> | undefined {
  return connectors.get(slug);
}
