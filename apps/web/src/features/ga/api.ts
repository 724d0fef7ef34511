// GA4's own call: "send a test lead" through Google's validation server (POST /api/ga/debug/{id}).
import type { GaDebugResult } from '@leadrelay/shared';
import { api } from '../../lib/http';

export interface TestLead {
  name?: string;
  phone?: string;
  email?: string;
  utm?: Record<string, string>;
  custom?: Record<string, string>;
}

export const gaApi = {
  debug: (integrationId: string, lead?: TestLead) =>
    api.post<GaDebugResult>(`/api/ga/debug/${encodeURIComponent(integrationId)}`, lead ? { lead } : {}),
};
