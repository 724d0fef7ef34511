// The auth module's door (issue 29): its descriptor, which app-modules.ts lists, and what other
// modules may use of it. A module imports another only through its index.ts (npm run lint:deps:server);
// what is not here is the module's own.
import { defineModule } from '../server-module';
import { authRoutes, authSettings } from './auth.routes';
import { authTasks } from './auth.tasks';
import { sessionsRoutes } from './sessions.routes';

export { authenticateToken, isAccountActive } from './authenticate';
export { createEmailToken } from './email-tokens.service';
export { ENTER_SESSION_MINUTES, issueEnterCode } from './enter.service';
export { clearRefreshCookie } from './refresh-cookie';
export { revokeUserSessions } from './sessions.service';
export { clearLoginFailures, DEFAULT_THROTTLE } from './throttle.service';

export const authModule = defineModule({
  name: 'auth',
  settings: authSettings,
  routes: [authRoutes, sessionsRoutes],
  setup: ({ deps }) => ({
    tasks: authTasks({ loginFailureWindowMs: deps.config.throttle.windowSeconds * 1000 }),
  }),
});
