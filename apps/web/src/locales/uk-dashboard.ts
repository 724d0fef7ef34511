// The uk strings of the account area's layout and its first page, the dashboard (its counters,
// integrations' states, recent leads, plan prompts); lib/i18n.ts loads them before the layout shows.
import { connectorWords } from './connector-words';
import dashboard from './uk/dashboard.json';
import hooks from './uk/hooks.json';
import integrations from './uk/integrations.json';
import plans from './uk/plans.json';

export default {
  // The words of every connector's codes (its errors and reasons: an integration's state shows on
  // the dashboard); the rest chunk adds the connectors' other words under the same namespace.
  connectors: connectorWords(
    import.meta.glob<object>('../../../../packages/connectors/src/*/words/codes/uk.json', {
      eager: true,
      import: 'default',
    }),
  ),
  dashboard,
  hooks,
  integrations,
  plans,
};
