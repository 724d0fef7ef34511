// The one way a connector's list reaches a route: GET <path>/:id answers the connector's loader for
// the actor's own integration of the type. The generic {type}/users and {type}/fields routes and the
// list aliases connectors declare for the spec's paths (pipelines, deal fields …) are all entries of such tables.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type ZodType, z } from 'zod';
import { authOf } from '../../plugins/auth';
import { loadList, type Refusal } from './connector-calls.service';

export interface LoaderRoute {
  /** The route, ending in the integration id parameter `:id`. */
  path: `${string}/:id`;
  /** The loader's name in the definition. */
  list: string;
  response: ZodType;
}

const ZIdParams = z.object({ id: z.string() });

export function registerLoaderRoutes(
  app: FastifyInstance,
  type: string,
  routes: LoaderRoute[],
  options: { tags: string[]; refusal?: Refusal },
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  for (const route of routes) {
    r.get(
      route.path,
      {
        config: { access: 'client' },
        schema: { tags: options.tags, params: ZIdParams, response: { 200: route.response } },
      },
      (req) => loadList(app.deps, authOf(req).user, req.params.id, type, route.list, options.refusal) as never,
    );
  }
}
