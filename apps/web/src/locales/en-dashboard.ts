// The en strings of the account area's layout and its first page, the dashboard (its counters,
// integrations' states, recent leads, plan prompts); lib/i18n.ts loads them before the layout shows.
import { connectorWords } from './connector-words';
import dashboard from './en/dashboard.json';
import hooks from './en/hooks.json';
import integrations from './en/integrations.json';
import plans from './en/plans.json';

export default {
  // The words of every connector's codes (its errors and reasons: an integration's state shows on
  // the dashboard); the rest chunk adds the connectors' other words under the same namespace.
  connectors: connectorWords(
    import.meta.glob<object>('../../../../packages/connectors/src/*/words/codes/en.json', {
      eager: true,
      import: 'default',
    }),
  ),
  dashboard,
  hooks,
  integrations,
  plans,
};
