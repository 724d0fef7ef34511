import type { Locale } from '@leadrelay/shared';
import dayjs from 'dayjs';
import 'dayjs/locale/uk';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import enAccount from '../locales/en/account.json';
import enAuth from '../locales/en/auth.json';
import enBilling from '../locales/en/billing.json';
import enCollections from '../locales/en/collections.json';
import enCommon from '../locales/en/common.json';
import enCrm from '../locales/en/crm.json';
import enDashboard from '../locales/en/dashboard.json';
import enErrors from '../locales/en/errors.json';
import enFacebook from '../locales/en/facebook.json';
import enGa from '../locales/en/ga.json';
import enHooks from '../locales/en/hooks.json';
import enHoroshop from '../locales/en/horoshop.json';
import enIntegrations from '../locales/en/integrations.json';
import enLayout from '../locales/en/layout.json';
import enPages from '../locales/en/pages.json';
import enPlans from '../locales/en/plans.json';
import enReferral from '../locales/en/referral.json';
import enSms from '../locales/en/sms.json';
import enSuperAdmin from '../locales/en/superAdmin.json';
import enWidget from '../locales/en/widget.json';
import ukAccount from '../locales/uk/account.json';
import ukAuth from '../locales/uk/auth.json';
import ukBilling from '../locales/uk/billing.json';
import ukCollections from '../locales/uk/collections.json';
import ukCommon from '../locales/uk/common.json';
import ukCrm from '../locales/uk/crm.json';
import ukDashboard from '../locales/uk/dashboard.json';
import ukErrors from '../locales/uk/errors.json';
import ukFacebook from '../locales/uk/facebook.json';
import ukGa from '../locales/uk/ga.json';
import ukHooks from '../locales/uk/hooks.json';
import ukHoroshop from '../locales/uk/horoshop.json';
import ukIntegrations from '../locales/uk/integrations.json';
import ukLayout from '../locales/uk/layout.json';
import ukPages from '../locales/uk/pages.json';
import ukPlans from '../locales/uk/plans.json';
import ukReferral from '../locales/uk/referral.json';
import ukSms from '../locales/uk/sms.json';
import ukSuperAdmin from '../locales/uk/superAdmin.json';
import ukWidget from '../locales/uk/widget.json';
import { currentLocale } from './locale';

export const resources = {
  uk: {
    common: ukCommon,
    auth: ukAuth,
    account: ukAccount,
    dashboard: ukDashboard,
    errors: ukErrors,
    layout: ukLayout,
    pages: ukPages,
    hooks: ukHooks,
    horoshop: ukHoroshop,
    integrations: ukIntegrations,
    superAdmin: ukSuperAdmin,
    collections: ukCollections,
    crm: ukCrm,
    widget: ukWidget,
    facebook: ukFacebook,
    plans: ukPlans,
    billing: ukBilling,
    referral: ukReferral,
    sms: ukSms,
    ga: ukGa,
  },
  en: {
    common: enCommon,
    auth: enAuth,
    account: enAccount,
    dashboard: enDashboard,
    errors: enErrors,
    layout: enLayout,
    pages: enPages,
    hooks: enHooks,
    horoshop: enHoroshop,
    integrations: enIntegrations,
    superAdmin: enSuperAdmin,
    collections: enCollections,
    crm: enCrm,
    widget: enWidget,
    facebook: enFacebook,
    plans: enPlans,
    billing: enBilling,
    referral: enReferral,
    sms: enSms,
    ga: enGa,
  },
} as const;

export const NAMESPACES = Object.keys(resources.uk) as (keyof typeof resources.uk)[];

void i18n.use(initReactI18next).init({
  resources,
  lng: currentLocale(),
  fallbackLng: 'uk',
  supportedLngs: ['uk', 'en'],
  ns: NAMESPACES,
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

/** Switches i18next and dayjs to the locale of the URL. */
export function applyLocale(locale: Locale): void {
  if (i18n.language !== locale) void i18n.changeLanguage(locale);
  dayjs.locale(locale === 'uk' ? 'uk' : 'en');
  document.documentElement.lang = locale;
}

export { i18n };
