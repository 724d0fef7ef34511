// The signed-in user and signing out: the app shell, the guards and several features need them,
// so they live below the features (house style: what two features share moves down).
import type { User } from '@leadrelay/shared';
import { useQuery } from '@tanstack/react-query';
import { clearToken, getToken, markSignedOut, useToken } from './auth';
import { setDisplayZone } from './format';
import { api } from './http';
import { impersonationOf, returnToOwnSession } from './impersonation';
import { queryClient } from './query-client';

export const ME_KEY = ['me'] as const;

/** GET /api/auth/me: the profile of the token's user; moments are shown in its time zone from then on. */
export const fetchMe = () =>
  api.get<User>('/api/auth/me').then((me) => {
    setDisplayZone(me.timeZone);
    return me;
  });

/** The signed-in user (spec: getMe); disabled while signed out. */
export function useMe() {
  const token = useToken();
  return useQuery<User>({ queryKey: ME_KEY, queryFn: fetchMe, enabled: Boolean(token), staleTime: 60_000 });
}

/** Logout: the endpoint (errors ignored: the local session ends regardless), then local state. */
export async function signOut(): Promise<void> {
  if (impersonationOf(getToken())) {
    // Inside an entered account the refresh cookie is the staff member's own: signing out would end
    // their session. It returns to it instead; the page is replaced, so this never resolves.
    await returnToOwnSession();
    return new Promise<never>(() => {});
  }
  // Marked first: the calls in flight meet the revoked session with a 401, which is no expiry.
  markSignedOut();
  await queryClient.cancelQueries();
  try {
    await api.post<{ success: true }>('/api/auth/logout');
  } catch (err) {
    console.warn('logout failed', err);
  }
  clearToken();
  queryClient.clear();
  setDisplayZone(undefined);
}
