// The en strings every page needs from its first paint (auth pages, layouts, errors); lib/i18n.ts loads them at start.
import auth from './en/auth.json';
import clients from './en/clients.json';
import common from './en/common.json';
import errors from './en/errors.json';
import layout from './en/layout.json';
import pages from './en/pages.json';

export default {
  auth,
  clients,
  common,
  errors,
  layout,
  pages,
};
