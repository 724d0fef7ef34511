// The conversions module's door (issue 33: CRM stages back to the ad platform): its descriptor, which
// app-modules.ts lists, and what other modules may use of it (crm-events queues a stage's event, the
// lead log reads a lead's events).
import { connectionDeps } from '../connections';
import { defineModule } from '../server-module';
import { conversionsRoutes } from './conversions.routes';
import { CONVERSIONS_WAKE, ConversionSender, conversionAccessTask } from './conversions.sender';

declare module 'fastify' {
  interface FastifyInstance {
    /** Sends the due conversion events (runs where the worker runs; tests drive it). */
    conversionSender: ConversionSender;
  }
}

export { leadConversions, queueStageConversion } from './conversions.service';

export const conversionsModule = defineModule({
  name: 'conversions',
  routes: [conversionsRoutes],
  setup: ({ app, deps }) => {
    const sender = new ConversionSender(connectionDeps(app), deps.events);
    app.decorate('conversionSender', sender);
    return {
      tasks: [conversionAccessTask(sender)],
      // Made events wake the sender in every worker process, as deliveries wake the worker.
      background: {
        start: () => sender.start(),
        stop: () => sender.stop(),
        wake: sender.wake,
        wakeOn: CONVERSIONS_WAKE,
      },
    };
  },
});
