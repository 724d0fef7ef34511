// The uk strings every page needs from its first paint (auth pages, layouts, errors); lib/i18n.ts loads them at start.
import auth from './uk/auth.json';
import clients from './uk/clients.json';
import common from './uk/common.json';
import errors from './uk/errors.json';
import layout from './uk/layout.json';
import pages from './uk/pages.json';

export default {
  auth,
  clients,
  common,
  errors,
  layout,
  pages,
};
