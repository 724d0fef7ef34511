// The rest of the en strings: loaded with every page of the account area but the dashboard (lib/i18n.ts).

import { connectorWords } from './connector-words';
import account from './en/account.json';
import audit from './en/audit.json';
import billing from './en/billing.json';
import catalogue from './en/catalogue.json';
import collections from './en/collections.json';
import crm from './en/crm.json';
import guardian from './en/guardian.json';
import news from './en/news.json';
import parsers from './en/parsers.json';
import referral from './en/referral.json';
import speed from './en/speed.json';
import superAdmin from './en/superAdmin.json';
import testLead from './en/testLead.json';
import translations from './en/translations.json';
import widget from './en/widget.json';

export default {
  account,
  audit,
  billing,
  catalogue,
  collections,
  // Every connector's words, by folder (no connector named here).
  connectors: connectorWords(
    import.meta.glob<object>('../../../../packages/connectors/src/*/words/en.json', { eager: true, import: 'default' }),
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
