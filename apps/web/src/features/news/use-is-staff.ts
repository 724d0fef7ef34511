import { isPrivileged, type User } from '@leadrelay/shared';
import { useQuery } from '@tanstack/react-query';
import { isTokenFresh, useToken } from '../../lib/auth';
import { fetchMe, ME_KEY } from '../../lib/current-user';

/** Staff signed in on a public page: they see the publishing controls. A stale token asks nothing
 * (a 401 here would send a reader to the sign-in page). */
export function useIsStaff(): boolean {
  const fresh = isTokenFresh(useToken());
  const me = useQuery<User>({ queryKey: ME_KEY, queryFn: fetchMe, enabled: fresh, staleTime: 60_000 });
  return fresh && isPrivileged(me.data?.role);
}
