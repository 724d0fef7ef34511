import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type AuditParams, auditApi } from './api';

export const useAuditQuery = (q: AuditParams) =>
  useQuery({ queryKey: ['audit', q], queryFn: () => auditApi.list(q), placeholderData: keepPreviousData });
