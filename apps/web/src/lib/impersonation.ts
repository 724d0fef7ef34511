// Entering a client's account (docs/operator.md): the staff member's tab holds a short-lived token
// of the client's session, marked with their login (`imp`); their own refresh cookie is untouched,
// so returning is: end the entered session, refresh, and the token is their own again.
import { clearToken, decodeToken, useToken } from './auth';
import { api, refreshAccessToken } from './http';
import { localePath } from './locale';
import { queryClient } from './query-client';

export interface Impersonation {
  /** The account entered. */
  login: string;
  /** The staff member who entered it. */
  operator: string;
}

export function impersonationOf(token: string | null): Impersonation | null {
  const payload = token ? decodeToken(token) : null;
  if (!payload?.imp || !payload.login) return null;
  return { login: payload.login, operator: payload.imp };
}

export function useImpersonation(): Impersonation | null {
  return impersonationOf(useToken());
}

/**
 * Opens the entered session in this tab, with nothing of the operator's data left cached: /enter
 * exchanges the one-time code, which works only here (with the operator's own session).
 */
export function openEnteredSession(code: string): void {
  queryClient.clear();
  window.location.assign(localePath(`/enter?code=${encodeURIComponent(code)}`));
}

/** "Return": ends the entered session and gets the staff member's own token back, no new sign-in. */
export async function returnToOwnSession(): Promise<void> {
  // Not DELETE /api/auth/sessions/{id}: ending the current session that way clears the refresh
  // cookie, which is the staff member's own.
  await api.post('/api/super/users/return').catch(() => undefined);
  queryClient.clear();
  const own = await refreshAccessToken();
  if (!own) clearToken();
  window.location.assign(localePath(own ? '/admin/super/clients' : '/signin'));
}
