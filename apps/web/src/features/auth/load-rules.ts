import { importWithReload } from '../../lib/chunk-reload';
import type { AuthRules } from './rules';

let rules: Promise<AuthRules> | undefined;

/** The auth forms' schemas (./rules), fetched once (a failed fetch is tried again next time). */
export function loadAuthRules(): Promise<AuthRules> {
  rules ??= importWithReload(() => import('./rules')).then(
    (m) => m.authRules,
    (err: unknown) => {
      rules = undefined;
      throw err;
    },
  );
  return rules;
}
