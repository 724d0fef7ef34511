// An integration's connector doing one of its declared actions (ConnectorDefinition.actions): the
// body checked with the action's schema, the call made with the connection's context, and, for an
// action that `keep`s, its answer kept as a record of that kind (a CRM's settings backups).
import { type ConnectorAction, connectors } from '@leadrelay/connectors';
import { ownValue } from '@leadrelay/shared';
import type { Deps } from '../../config';
import { AppError } from '../../lib/app-error';
import { zodAppError } from '../../plugins/errors';
import { callConnector } from './connector-calls.service';
import { keepRecord } from './connector-records.service';
import { type Actor, ownIntegrationOfType, ownRow } from './integration-rows';

/**
 * Runs action `name` (a name from the URL: own entries only) of the actor's integration `id`, of
 * `type` when an alias names it (another type's id: INTEGRATION_NOT_FOUND). 201 with the kept record
 * for an action that keeps its answer, else 200 with the answer.
 */
export async function runAction(
  deps: Deps,
  actor: Actor,
  id: string,
  name: string,
  body: unknown,
  type?: string,
): Promise<{ status: 200 | 201; answer: unknown }> {
  const row = type ? await ownIntegrationOfType(deps.db, actor, id, type) : await ownRow(deps.db, actor, id);
  const action = ownValue(connectors.get(row.type)?.actions, name) as ConnectorAction<unknown, unknown> | undefined;
  if (!action || typeof action.run !== 'function') throw new AppError('OPERATION_NOT_SUPPORTED');
  const parsed = action.body ? action.body.safeParse(body) : { success: true as const, data: body };
  if (!parsed.success) throw zodAppError('body', parsed.error);
  const integration = { id: row.id, settings: row.settings };
  const answer = await callConnector(deps, actor, row.id, row.type, (_connector, ctx) =>
    action.run(ctx, parsed.data, integration),
  );
  if (!action.keep) return { status: 200, answer };
  return { status: 201, answer: await keepRecord(deps.db, row, action.keep, answer) };
}
