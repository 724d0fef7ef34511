// The rest of the en strings: loaded with every page of the account area but the dashboard (lib/i18n.ts).
import account from './en/account.json';
import audit from './en/audit.json';
import billing from './en/billing.json';
import catalogue from './en/catalogue.json';
import collections from './en/collections.json';
import crm from './en/crm.json';
import facebook from './en/facebook.json';
import ga from './en/ga.json';
import guardian from './en/guardian.json';
import horoshop from './en/horoshop.json';
import news from './en/news.json';
import parsers from './en/parsers.json';
import referral from './en/referral.json';
import sms from './en/sms.json';
import speed from './en/speed.json';
import superAdmin from './en/superAdmin.json';
import telegram from './en/telegram.json';
import testLead from './en/testLead.json';
import translations from './en/translations.json';
import widget from './en/widget.json';

export default {
  account,
  audit,
  billing,
  catalogue,
  collections,
  crm,
  facebook,
  ga,
  guardian,
  horoshop,
  news,
  parsers,
  referral,
  sms,
  speed,
  superAdmin,
  telegram,
  testLead,
  translations,
  widget,
};
