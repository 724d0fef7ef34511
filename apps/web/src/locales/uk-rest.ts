// The rest of the uk strings: loaded with every page of the account area but the dashboard (lib/i18n.ts).

import { connectorWords } from './connector-words';
import account from './uk/account.json';
import audit from './uk/audit.json';
import billing from './uk/billing.json';
import catalogue from './uk/catalogue.json';
import collections from './uk/collections.json';
import crm from './uk/crm.json';
import guardian from './uk/guardian.json';
import news from './uk/news.json';
import parsers from './uk/parsers.json';
import referral from './uk/referral.json';
import speed from './uk/speed.json';
import superAdmin from './uk/superAdmin.json';
import testLead from './uk/testLead.json';
import translations from './uk/translations.json';
import widget from './uk/widget.json';

export default {
  account,
  audit,
  billing,
  catalogue,
  collections,
  // Every connector's words, by folder (no connector named here).
  connectors: connectorWords(
    import.meta.glob<object>('../../../../packages/connectors/src/*/words/uk.json', { eager: true, import: 'default' }),
  ),
  crm,
  guardian,
  news,
  parsers,
  referral,
  speed,
  superAdmin,
  testLead,
  translations,
  widget,
};
