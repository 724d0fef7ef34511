// The conversions module's door (issue 33: CRM stages back to the ad platform): its descriptor, which
// app-modules.ts lists, and what other modules may use of it (crm-events queues a stage's event, the
// lead log reads a lead's events).
import { connectionDeps } from '../connections';
import { defineModule } from '../server-module';
import { conversionsRoutes } from './conversions.routes';
import { conversionTasks } from './conversions.sender';

export { leadConversions, queueStageConversion } from './conversions.service';

export const conversionsModule = defineModule({
  name: 'conversions',
  routes: [conversionsRoutes],
  setup: ({ app }) => ({ tasks: conversionTasks(connectionDeps(app)) }),
});
