import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { currentRates } from './currency.service';

export async function currencyRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Public: prices are shown before sign-in too, and a rate is no secret.
  r.get(
    '/api/legacy/api/currency',
    { config: { access: 'public' }, schema: { tags: ['currency'], summary: 'Exchange rates (UAH per unit)' } },
    () => currentRates(app.deps.db),
  );
}
