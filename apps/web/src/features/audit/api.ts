import { api } from '../../lib/http';

export interface AuditEntry {
  _id: string;
  actor: { _id: string; login: string };
  action: string;
  targetType: string;
  targetId: string | null;
  targetLabel: string | null;
  details: Record<string, unknown>;
  ip: string | null;
  userAgent: string | null;
  createdAt: string;
}

export interface AuditParams {
  page: number;
  limit: number;
  action?: string;
}

export const auditApi = {
  list: (q: AuditParams) => api.get<{ data: AuditEntry[]; total: number }>('/api/super/audit', { ...q }),
};
