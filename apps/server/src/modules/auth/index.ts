// The auth module's door: what other modules may use of it (issue 29). A module imports another
// only through its index.ts (npm run lint:deps:server); what is not here is the module's own.
export { createEmailToken } from './email-tokens.service';
export { ENTER_SESSION_MINUTES, issueEnterCode } from './enter.service';
export { clearRefreshCookie } from './refresh-cookie';
export { revokeUserSessions } from './sessions.service';
export { clearLoginFailures } from './throttle.service';
