// The Pipedrive–SendPulse widget (spec 2 "Widget", 7 "Pipedrive"): a panel inside Pipedrive shows the
// SendPulse chatbot contacts of the person it is opened on and sends them messages. Pipedrive's user
// is not signed in to us there, so the panel's URL carries a signed widget token naming the Pipedrive
// integration and its account; it stays valid while that integration exists and names a SendPulse one.

import {
  type ConnectorContext,
  getConnector,
  PermanentError,
  type PipedriveSettings,
  pipedriveClient,
  RetryableError,
  type SendpulseAuth,
  type SendpulseSettings,
  sendpulseChat,
} from '@leadrelay/connectors';
import type { WidgetData } from '@leadrelay/shared';
import { and, eq } from 'drizzle-orm';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import type { Deps } from '../../config';
import { type IntegrationRow, integrations, type UserRow } from '../../db/schema';
import { connectorContext, reasonOf } from '../../delivery/connector-context';
import { AppError } from '../../lib/app-error';
import { isUuid } from '../../lib/ids';

type Actor = Pick<UserRow, 'id'>;
export const WIDGET_PATH = '/widgets/pipedrive-sendpulse';
const PURPOSE = 'widget';

const keyOf = (secret: string) => new TextEncoder().encode(secret);
const ZWidgetToken = z.object({ purpose: z.literal(PURPOSE), integrationId: z.uuid(), accountId: z.uuid() });

async function rowOf(deps: Deps, accountId: string, id: string, type: string): Promise<IntegrationRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await deps.db
    .select()
    .from(integrations)
    .where(and(eq(integrations.id, id), eq(integrations.accountId, accountId), eq(integrations.type, type)));
  return row;
}

const sendpulseIdOf = (row: IntegrationRow) =>
  (row.settings as Partial<PipedriveSettings> | null)?.sendpulseIntegrationId ?? undefined;

/** GET /api/pipedrive/widget/{integrationId}: the panel URL for the caller's own Pipedrive integration. */
export async function widgetUrl(deps: Deps, actor: Actor, integrationId: string): Promise<{ url: string }> {
  const row = await rowOf(deps, actor.id, integrationId, 'pipedrive');
  if (!row) throw new AppError('INTEGRATION_NOT_FOUND');
  const sendpulseId = sendpulseIdOf(row);
  if (!sendpulseId || !(await rowOf(deps, actor.id, sendpulseId, 'sendpulse'))) {
    throw new AppError('INTEGRATION_NOT_CONNECTED', { message: 'Choose the SendPulse integration first' });
  }
  // No expiry: Pipedrive keeps the URL for good. Deleting the integration or unsetting SendPulse ends it.
  const token = await new SignJWT({ purpose: PURPOSE, integrationId: row.id, accountId: actor.id })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .sign(keyOf(deps.config.jwtSecret));
  return { url: `${deps.config.publicUrl}${WIDGET_PATH}?token=${encodeURIComponent(token)}` };
}

interface Widget {
  pipedrive: IntegrationRow;
  sendpulse: IntegrationRow;
}

/** The two integrations a token stands for; WIDGET_NOT_FOUND for a bad token or a widget no longer set up. */
async function resolve(deps: Deps, token: string): Promise<Widget> {
  let claims: z.infer<typeof ZWidgetToken>;
  try {
    const { payload } = await jwtVerify(token, keyOf(deps.config.jwtSecret), { algorithms: ['HS256'] });
    const parsed = ZWidgetToken.safeParse(payload);
    if (!parsed.success) throw new AppError('WIDGET_NOT_FOUND');
    claims = parsed.data;
  } catch (error) {
    if (error instanceof joseErrors.JOSEError || error instanceof TypeError || error instanceof AppError) {
      throw new AppError('WIDGET_NOT_FOUND');
    }
    throw error;
  }
  const pipedrive = await rowOf(deps, claims.accountId, claims.integrationId, 'pipedrive');
  const sendpulseId = pipedrive && sendpulseIdOf(pipedrive);
  const sendpulse = sendpulseId ? await rowOf(deps, claims.accountId, sendpulseId, 'sendpulse') : undefined;
  if (!pipedrive || !sendpulse) throw new AppError('WIDGET_NOT_FOUND');
  return { pipedrive, sendpulse };
}

function contextOf<A, S>(deps: Deps, row: IntegrationRow): ConnectorContext<A, S> {
  const connector = getConnector(row.type);
  if (!connector) throw new AppError('OPERATION_NOT_SUPPORTED');
  return connectorContext(deps, connector, row) as ConnectorContext<A, S>;
}

/** A remote failure as an answer: the person gone → NOT_FOUND, SendPulse's 10 rps → TOO_MANY_REQUESTS. */
function remoteError(error: unknown, what: 'person' | 'sendpulse'): AppError {
  if (error instanceof AppError) return error;
  if (what === 'person' && error instanceof PermanentError && (error.httpStatus === 404 || error.httpStatus === 410)) {
    return new AppError('NOT_FOUND', { message: 'Person not found' });
  }
  if (error instanceof RetryableError && error.httpStatus === 429) return new AppError('TOO_MANY_REQUESTS');
  return new AppError('CONNECTION_FAILED', { message: reasonOf(error) });
}

async function lookUp(deps: Deps, widget: Widget, personId: number) {
  type PipedriveCtx = Parameters<typeof pipedriveClient>[0];
  const pdCtx = contextOf<PipedriveCtx['auth'], PipedriveCtx['settings']>(deps, widget.pipedrive);
  const spCtx = contextOf<SendpulseAuth, SendpulseSettings>(deps, widget.sendpulse);
  const person = await pipedriveClient(pdCtx)
    .getPerson(personId)
    .catch((error) => {
      throw remoteError(error, 'person');
    });
  const chat = sendpulseChat(spCtx);
  const contacts = await chat.findContacts(person).catch((error) => {
    throw remoteError(error, 'sendpulse');
  });
  return { person, contacts, chat, channel: spCtx.settings.channel };
}

/** GET /api/legacy/api/pipedrive/sendpulse: the person and their matching chatbot contacts. */
export async function widgetData(deps: Deps, token: string, personId: number): Promise<WidgetData> {
  const widget = await resolve(deps, token);
  const { person, contacts, channel } = await lookUp(deps, widget, personId);
  return { person, channel, contacts };
}

/** POST /api/legacy/api/pipedrive/sendpulse/message: only to a contact matched for that person. */
export async function sendWidgetMessage(
  deps: Deps,
  body: { token: string; personId: number; contactId: string; text: string },
): Promise<{ success: true }> {
  const widget = await resolve(deps, body.token);
  const { contacts, chat } = await lookUp(deps, widget, body.personId);
  if (!contacts.some((c) => c.id === body.contactId)) {
    throw new AppError('NOT_FOUND', { message: 'Contact not found for this person' });
  }
  await chat.sendText(body.contactId, body.text).catch((error) => {
    throw remoteError(error, 'sendpulse');
  });
  return { success: true };
}
