import { useQuery } from '@tanstack/react-query';
import { authApi } from './api';

/** Whether sign-in with Facebook is set up here, and with which app id (the button shows only then). */
export function useFacebookConfig() {
  return useQuery({
    queryKey: ['auth', 'facebook-config'],
    queryFn: authApi.facebookConfig,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}
