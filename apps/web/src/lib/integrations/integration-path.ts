import type { Integration } from '@leadrelay/shared';
import { localePath } from '../locale';

/** The integration's own page in the current language (dedicated types have their own routes). */
export const integrationPath = (i: Pick<Integration, '_id' | 'type'>) =>
  i.type === 'parser'
    ? // E-mail parsers have their own screens (spec 2: /admin/parsers/{id}).
      localePath(`/admin/parsers/${encodeURIComponent(i._id)}`)
    : localePath(`/admin/integrations/${encodeURIComponent(i.type)}/${encodeURIComponent(i._id)}`);
