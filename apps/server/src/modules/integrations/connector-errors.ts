// A connector's failure as the API answers it on the paths a person waits on (its own connect, our
// receiver's subscription) and as a poll keeps it: the connector's declared `errors` turn the
// failure's code into an API error key of its own (…_AUTH_FAILED) with the service's own words as
// the message; a connector that declares none answers CONNECTION_FAILED with the failure's reason.
import type { ConnectorDefinition } from '@leadrelay/connectors';
import { ownValue } from '@leadrelay/shared';
import { reasonOf } from '../../delivery/connector-context';
import { AppError } from '../../lib/app-error';
import { storableText } from '../../lib/storable-text';

type Connector = Pick<ConnectorDefinition<unknown, unknown>, 'errors'>;

const codeOf = (error: unknown) => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
};

export function connectorError(connector: Connector, error: unknown): AppError {
  if (error instanceof AppError) return error;
  const spec = connector.errors;
  const words = spec?.words?.(error);
  const message = words ?? reasonOf(error);
  if (!spec) return new AppError('CONNECTION_FAILED', { message });
  const code = codeOf(error);
  // The failure's code is the connector's (or the kit's): own entries only.
  const entry = (code === undefined ? undefined : ownValue(spec.byCode, code)) as
    | (typeof spec.byCode)[string]
    | undefined;
  if (!entry) return new AppError(spec.otherwise, { message });
  const { key, field, bare } = typeof entry === 'string' ? { key: entry, field: undefined, bare: false } : entry;
  return new AppError(key, {
    ...(bare ? {} : { message }),
    ...(field ? { errors: [{ field, code: key }] } : {}),
  });
}

/**
 * What a screen shows of a failure, kept as a poll's last error and as a broken integration's
 * reason: the key, and the service's own words (if any) after a colon; storable (text from outside, ADR 009).
 */
export function connectorReason(connector: Connector, error: unknown): string {
  if (!connector.errors) return reasonOf(error);
  const key = connectorError(connector, error).code;
  const words = connector.errors.words?.(error);
  return storableText((words ? `${key}: ${words}` : key).slice(0, 300));
}

/** The service refused our login, or no key opens the stored credentials: the user must connect again. */
export function isAuthFailure(error: unknown): boolean {
  if (error instanceof AppError) return error.code === 'INTEGRATION_AUTH_UNREADABLE';
  return codeOf(error) === 'AUTH';
}
