// Whether an error means the database connection was lost (PostgreSQL restarting or shutting
// down, a terminated backend, a refused or reset socket) rather than that a statement was wrong:
// the first is worth trying again on a new connection, the second never is.

/** SQLSTATE classes and codes of a lost or not yet available connection. */
const LOST_STATES = new Set(['57P01', '57P02', '57P03', '53300']);
const LOST_SOCKET = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOENT', 'EPIPE', 'ETIMEDOUT']);
const LOST_MESSAGES = [/connection terminated/i, /not queryable/i, /Connection ended/i];

export function isConnectionLoss(error: unknown): boolean {
  // Drizzle wraps the driver's error (DrizzleQueryError), so the cause chain is read too.
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (code.startsWith('08') || LOST_STATES.has(code) || LOST_SOCKET.has(code)))
      return true;
    if (typeof message === 'string' && LOST_MESSAGES.some((m) => m.test(message))) return true;
  }
  return false;
}
