// The Facebook module as the app wires it: the processor of stored Meta leadgen events
// (app.facebookLeads), which runs where the worker runs, its backfill tasks and its routes.
import { defineModule } from '../server-module';
import { facebookRoutes } from './facebook.routes';
import { facebookLeadTasks } from './facebook-backfill.task';
import { facebookDeps } from './facebook-deps';
import { FacebookLeadgenProcessor } from './facebook-webhook.job';
import { facebookWebhookRoutes } from './facebook-webhook.routes';

declare module 'fastify' {
  interface FastifyInstance {
    /** Fetches and ingests stored Meta leadgen events (runs where the worker runs; tests drive it). */
    facebookLeads: FacebookLeadgenProcessor;
  }
}

export const facebookModule = defineModule({
  name: 'facebook',
  routes: [facebookRoutes, facebookWebhookRoutes],
  setup: ({ app, deps }) => {
    const leads = new FacebookLeadgenProcessor(facebookDeps(app), deps.events);
    app.decorate('facebookLeads', leads);
    return {
      tasks: facebookLeadTasks(facebookDeps(app), deps.events),
      // Stored Meta leadgen events wake the processor in every worker process, as deliveries wake the worker.
      background: {
        start: () => leads.start(),
        stop: () => leads.stop(),
        wake: () => leads.wake(),
        wakeOn: 'facebook.leadgen',
      },
    };
  },
});
