import type { User } from '@leadrelay/shared';
import { useQuery } from '@tanstack/react-query';
import { queryClient } from '../../app/query-client';
import { clearToken, markSignedOut, useToken } from '../../lib/auth';
import { authApi } from './api';

export const ME_KEY = ['me'] as const;

/** The signed-in user (spec: getMe); disabled while signed out. */
export function useMe() {
  const token = useToken();
  return useQuery<User>({ queryKey: ME_KEY, queryFn: authApi.me, enabled: Boolean(token), staleTime: 60_000 });
}

/** Whether sign-in with Facebook is set up here, and with which app id (the button shows only then). */
export function useFacebookConfig() {
  return useQuery({
    queryKey: ['auth', 'facebook-config'],
    queryFn: authApi.facebookConfig,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}

/** Logout: the endpoint (errors ignored: the local session ends regardless), then local state. */
export async function signOut(): Promise<void> {
  try {
    await authApi.logout();
  } catch (err) {
    console.warn('logout failed', err);
  }
  markSignedOut();
  clearToken();
  queryClient.clear();
}
