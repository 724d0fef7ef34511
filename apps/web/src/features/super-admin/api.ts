import type { DeliveryErrorList, DeliveryErrorRestart } from '@leadrelay/shared';
import { api } from '../../lib/http';

const ERRORS = '/api/legacy/api/super-admin/errors';

export interface ErrorsParams {
  page: number;
  limit: number;
  accountId?: string;
}

export const superErrorsApi = {
  list: (q: ErrorsParams) => api.get<DeliveryErrorList>(ERRORS, { ...q }),
  restart: (id: string) => api.post<DeliveryErrorRestart>(`${ERRORS}/${encodeURIComponent(id)}`),
};
