// Deal, person, organization and lead fields in the Pipedrive emulator, in v1's shape and v2's
// (field_code, is_custom_field); lead fields are the deal fields, as in Pipedrive.
import { type Api, pageV2 } from './emulator-api';

export function registerFieldRoutes(api: Api): void {
  const { store, v1, v2, pageV1 } = api;
  for (const list of ['dealFields', 'personFields', 'organizationFields'] as const) {
    v1('GET', `/${list}`, async (req) => pageV1(store.fields[list], req));
    v2('GET', `/${list}`, async (req) =>
      pageV2(
        store.fields[list].map((f) => ({
          field_code: f.key,
          field_name: f.name,
          field_type: f.field_type,
          is_custom_field: f.edit_flag,
          options: f.options,
        })),
        req,
      ),
    );
  }
  v1('GET', '/leadFields', async (req) => pageV1(store.fields.dealFields, req));
}
