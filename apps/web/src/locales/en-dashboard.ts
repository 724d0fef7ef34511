// The en strings of the account area's layout and its first page, the dashboard (its counters,
// integrations' states, recent leads, plan prompts); lib/i18n.ts loads them before the layout shows.
import dashboard from './en/dashboard.json';
import hooks from './en/hooks.json';
import integrations from './en/integrations.json';
import plans from './en/plans.json';

export default {
  dashboard,
  hooks,
  integrations,
  plans,
};
