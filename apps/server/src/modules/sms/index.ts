// The sms module's door (issue 29): its descriptor, which app-modules.ts lists, and what other
// modules may use of it. A module imports another only through its index.ts (npm run lint:deps:server);
// what is not here is the module's own.
import { defineModule } from '../server-module';
import { smsRoutes } from './sms.routes';
import { recordSentSms } from './sms.service';
import { smsTasks } from './sms.tasks';

export const smsModule = defineModule({
  name: 'sms',
  routes: [smsRoutes],
  // AlphaSMS's log of what it sent, kept in the transaction that stores the delivery's result.
  delivery: () => ({ recorders: { alfasms: recordSentSms } }),
  setup: ({ deps }) => ({ tasks: smsTasks(deps) }),
});
