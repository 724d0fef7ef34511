// Whether the destination's CRM tells us of stage changes (speed to lead, issue 19), or why not:
// GET /api/integrations/:id/crm-watch, for a connector with a stage watch.
import type { CrmWatch, Integration } from '@leadrelay/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../http';

/** Our stage-change webhook at the CRM; a reconnect (UPDATE_INTEGRATION) reads it again. */
export const useCrmWatchQuery = (i: Integration) =>
  useQuery({
    queryKey: ['integrations', i._id, 'crm-watch'],
    queryFn: () => api.get<CrmWatch>(`/api/integrations/${encodeURIComponent(i._id)}/crm-watch`),
    enabled: i.isConnected,
  });
