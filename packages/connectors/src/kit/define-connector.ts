import { hasContact } from '@leadrelay/shared';
import { PermanentError } from './errors';
import type { ConnectorDefinition } from './types';

/**
 * Types a connector's auth and settings from its zod schemas; the object itself is the connector.
 * A connector that `requiresContact` refuses a lead nobody can be reached by, here, once for all.
 */
export function defineConnector<Auth, Settings>(
  definition: ConnectorDefinition<Auth, Settings>,
): ConnectorDefinition<Auth, Settings> {
  const { deliver } = definition;
  if (!definition.requiresContact || !deliver) return definition;
  return {
    ...definition,
    deliver: (ctx, input) => {
      if (!hasContact(input.lead)) {
        return Promise.reject(new PermanentError('LEAD_NO_CONTACT', { code: 'LEAD_NO_CONTACT' }));
      }
      return deliver(ctx, input);
    },
  };
}
