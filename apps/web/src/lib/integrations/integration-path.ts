import type { Integration } from '@leadrelay/shared';
import { localePath } from '../locale';

/** The integration's own page in the current language (dedicated types have their own routes). */
export const integrationPath = (i: Pick<Integration, '_id' | 'type'>) =>
  localePath(`/admin/integrations/${encodeURIComponent(i.type)}/${encodeURIComponent(i._id)}`);
