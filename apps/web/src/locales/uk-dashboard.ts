// The uk strings of the account area's layout and its first page, the dashboard (its counters,
// integrations' states, recent leads, plan prompts); lib/i18n.ts loads them before the layout shows.
import dashboard from './uk/dashboard.json';
import hooks from './uk/hooks.json';
import integrations from './uk/integrations.json';
import plans from './uk/plans.json';

export default {
  dashboard,
  hooks,
  integrations,
  plans,
};
