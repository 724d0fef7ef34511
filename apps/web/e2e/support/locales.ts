import enSms from '../../../../packages/connectors/src/alfasms/words/en.json' with { type: 'json' };
import ukSms from '../../../../packages/connectors/src/alfasms/words/uk.json' with { type: 'json' };
import enAmo from '../../../../packages/connectors/src/amocrm/words/en.json' with { type: 'json' };
import ukAmo from '../../../../packages/connectors/src/amocrm/words/uk.json' with { type: 'json' };
import enFacebook from '../../../../packages/connectors/src/facebook/words/en.json' with { type: 'json' };
import ukFacebook from '../../../../packages/connectors/src/facebook/words/uk.json' with { type: 'json' };
import enGa from '../../../../packages/connectors/src/ga/words/en.json' with { type: 'json' };
import ukGa from '../../../../packages/connectors/src/ga/words/uk.json' with { type: 'json' };
import enHoroshop from '../../../../packages/connectors/src/horoshop/words/en.json' with { type: 'json' };
import ukHoroshop from '../../../../packages/connectors/src/horoshop/words/uk.json' with { type: 'json' };
import enHttp from '../../../../packages/connectors/src/http/words/en.json' with { type: 'json' };
import ukHttp from '../../../../packages/connectors/src/http/words/uk.json' with { type: 'json' };
import enPd from '../../../../packages/connectors/src/pipedrive/words/en.json' with { type: 'json' };
import ukPd from '../../../../packages/connectors/src/pipedrive/words/uk.json' with { type: 'json' };
import enTelegram from '../../../../packages/connectors/src/telegram/words/en.json' with { type: 'json' };
import ukTelegram from '../../../../packages/connectors/src/telegram/words/uk.json' with { type: 'json' };
import enUs from '../../../../packages/connectors/src/uspacy/words/en.json' with { type: 'json' };
import ukUs from '../../../../packages/connectors/src/uspacy/words/uk.json' with { type: 'json' };
import enAudit from '../../src/locales/en/audit.json' with { type: 'json' };
import enAuth from '../../src/locales/en/auth.json' with { type: 'json' };
import enBilling from '../../src/locales/en/billing.json' with { type: 'json' };
import enCatalogue from '../../src/locales/en/catalogue.json' with { type: 'json' };
import enClients from '../../src/locales/en/clients.json' with { type: 'json' };
import enCollections from '../../src/locales/en/collections.json' with { type: 'json' };
import enCommon from '../../src/locales/en/common.json' with { type: 'json' };
import enCrm from '../../src/locales/en/crm.json' with { type: 'json' };
import enDashboard from '../../src/locales/en/dashboard.json' with { type: 'json' };
import enErrors from '../../src/locales/en/errors.json' with { type: 'json' };
import enHooks from '../../src/locales/en/hooks.json' with { type: 'json' };
import enIntegrations from '../../src/locales/en/integrations.json' with { type: 'json' };
import enLayout from '../../src/locales/en/layout.json' with { type: 'json' };
import enNews from '../../src/locales/en/news.json' with { type: 'json' };
import enPages from '../../src/locales/en/pages.json' with { type: 'json' };
import enParsers from '../../src/locales/en/parsers.json' with { type: 'json' };
import enPlans from '../../src/locales/en/plans.json' with { type: 'json' };
import enReferral from '../../src/locales/en/referral.json' with { type: 'json' };
import enTestLead from '../../src/locales/en/testLead.json' with { type: 'json' };
import enTranslations from '../../src/locales/en/translations.json' with { type: 'json' };
import ukAudit from '../../src/locales/uk/audit.json' with { type: 'json' };
import ukAuth from '../../src/locales/uk/auth.json' with { type: 'json' };
import ukBilling from '../../src/locales/uk/billing.json' with { type: 'json' };
import ukCatalogue from '../../src/locales/uk/catalogue.json' with { type: 'json' };
import ukClients from '../../src/locales/uk/clients.json' with { type: 'json' };
import ukCollections from '../../src/locales/uk/collections.json' with { type: 'json' };
import ukCommon from '../../src/locales/uk/common.json' with { type: 'json' };
import ukCrm from '../../src/locales/uk/crm.json' with { type: 'json' };
import ukDashboard from '../../src/locales/uk/dashboard.json' with { type: 'json' };
import ukErrors from '../../src/locales/uk/errors.json' with { type: 'json' };
import ukHooks from '../../src/locales/uk/hooks.json' with { type: 'json' };
import ukIntegrations from '../../src/locales/uk/integrations.json' with { type: 'json' };
import ukLayout from '../../src/locales/uk/layout.json' with { type: 'json' };
import ukNews from '../../src/locales/uk/news.json' with { type: 'json' };
import ukPages from '../../src/locales/uk/pages.json' with { type: 'json' };
import ukParsers from '../../src/locales/uk/parsers.json' with { type: 'json' };
import ukPlans from '../../src/locales/uk/plans.json' with { type: 'json' };
import ukReferral from '../../src/locales/uk/referral.json' with { type: 'json' };
import ukTestLead from '../../src/locales/uk/testLead.json' with { type: 'json' };
import ukTranslations from '../../src/locales/uk/translations.json' with { type: 'json' };

// The app's own texts, so a test reads the same words a person sees in each language.
export const texts = {
  uk: {
    auth: ukAuth,
    pages: ukPages,
    common: ukCommon,
    layout: ukLayout,
    dashboard: ukDashboard,
    integrations: ukIntegrations,
    collections: ukCollections,
    crm: ukCrm,
    facebook: ukFacebook,
    hooks: ukHooks,
    horoshop: ukHoroshop,
    http: ukHttp,
    plans: ukPlans,
    billing: ukBilling,
    referral: ukReferral,
    errors: ukErrors,
    sms: ukSms,
    ga: ukGa,
    amocrm: ukAmo,
    pipedrive: ukPd,
    uspacy: ukUs,
    news: ukNews,
    catalogue: ukCatalogue,
    testLead: ukTestLead,
    clients: ukClients,
    translations: ukTranslations,
    audit: ukAudit,
    parsers: ukParsers,
    telegram: ukTelegram,
    prefix: '',
  },
  en: {
    auth: enAuth,
    pages: enPages,
    common: enCommon,
    layout: enLayout,
    dashboard: enDashboard,
    integrations: enIntegrations,
    collections: enCollections,
    crm: enCrm,
    facebook: enFacebook,
    hooks: enHooks,
    horoshop: enHoroshop,
    http: enHttp,
    plans: enPlans,
    billing: enBilling,
    referral: enReferral,
    errors: enErrors,
    sms: enSms,
    ga: enGa,
    amocrm: enAmo,
    pipedrive: enPd,
    uspacy: enUs,
    news: enNews,
    catalogue: enCatalogue,
    testLead: enTestLead,
    clients: enClients,
    translations: enTranslations,
    audit: enAudit,
    parsers: enParsers,
    telegram: enTelegram,
    prefix: '/en',
  },
} as const;
export type Lang = keyof typeof texts;
export const LANGS: Lang[] = ['uk', 'en'];

export function uniqueLogin(tag: string): string {
  return `${tag}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
}
