import type { ConnectorDefinition } from './types';

/** Types a connector's auth and settings from its zod schemas; the object itself is the connector. */
export function defineConnector<Auth, Settings>(
  definition: ConnectorDefinition<Auth, Settings>,
): ConnectorDefinition<Auth, Settings> {
  return definition;
}
