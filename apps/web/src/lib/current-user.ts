// The signed-in user and signing out: the app shell, the guards and several features need them,
// so they live below the features (house style: what two features share moves down).
import type { User } from '@leadrelay/shared';
import { useQuery } from '@tanstack/react-query';
import { clearToken, markSignedOut, useToken } from './auth';
import { api } from './http';
import { queryClient } from './query-client';

export const ME_KEY = ['me'] as const;

/** GET /api/auth/me: the profile of the token's user. */
export const fetchMe = () => api.get<User>('/api/auth/me');

/** The signed-in user (spec: getMe); disabled while signed out. */
export function useMe() {
  const token = useToken();
  return useQuery<User>({ queryKey: ME_KEY, queryFn: fetchMe, enabled: Boolean(token), staleTime: 60_000 });
}

/** Logout: the endpoint (errors ignored: the local session ends regardless), then local state. */
export async function signOut(): Promise<void> {
  try {
    await api.post<{ success: true }>('/api/auth/logout');
  } catch (err) {
    console.warn('logout failed', err);
  }
  markSignedOut();
  clearToken();
  queryClient.clear();
}
