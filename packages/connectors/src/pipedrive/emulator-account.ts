// The company's users and activity types in the Pipedrive emulator (v1): what the connector's loaders
// and its connection test read. The first seeded user is the one the credentials belong to.
import { type Api, ok } from './emulator-api';
import { PIPEDRIVE_SEED } from './emulator-state';

export function registerAccountRoutes(api: Api): void {
  const { v1 } = api;
  const users = () =>
    PIPEDRIVE_SEED.users.map((u, i) => ({
      ...u,
      active_flag: true,
      is_admin: i === 0,
      is_you: i === 0,
      default_currency: 'UAH',
    }));
  // Not paged: the official models give GET /v1/users no additional_data (every user at once).
  v1('GET', '/users', async () => ok(users()));
  v1('GET', '/users/me', async () => ok({ ...users()[0], company_domain: 'acme' }));
  v1('GET', '/activityTypes', async () =>
    ok(
      PIPEDRIVE_SEED.activityTypes.map((t, i) => ({
        ...t,
        icon_key: t.key_string,
        active_flag: true,
        is_custom_flag: false,
        order_nr: i + 1,
      })),
    ),
  );
}
