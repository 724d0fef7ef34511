import type { Locale } from '@leadrelay/shared';
import i18n from 'i18next';
import HttpBackend from 'i18next-http-backend';
import MultiloadBackend from 'i18next-multiload-backend-adapter';
import { initReactI18next } from 'react-i18next';
import { currentLocale } from './locale';
import { uiLanguage } from './ui-language';

/** The Ukrainian strings' shape: the type of every key (types/i18next.d.ts); no bytes are bundled. */
export type Resources = typeof import('../locales/uk-start')['default'] &
  typeof import('../locales/uk-dashboard')['default'] &
  typeof import('../locales/uk-rest')['default'];

/**
 * `start`: what auth pages and layouts need; `dashboard`: that and the account layout's and the
 * dashboard's namespaces; `all`: every namespace (the rest of the account area).
 */
export type StringsPart = 'start' | 'dashboard' | 'all';
type Chunk = 'start' | 'dashboard' | 'rest';
type Bundle = { default: Record<string, object> };

// Each language's strings are chunks loaded on demand (issue 17 part 8: the first load carries one
// language, and /signin only the namespaces it shows). English is also the fallback of a language
// the operator added.
const BUNDLES: Record<'uk' | 'en', Record<Chunk, () => Promise<Bundle>>> = {
  uk: {
    start: () => import('../locales/uk-start'),
    dashboard: () => import('../locales/uk-dashboard'),
    rest: () => import('../locales/uk-rest'),
  },
  en: {
    start: () => import('../locales/en-start'),
    dashboard: () => import('../locales/en-dashboard'),
    rest: () => import('../locales/en-rest'),
  },
};

/** The chunks of each part. */
export const PART_CHUNKS: Record<StringsPart, readonly Chunk[]> = {
  start: ['start'],
  dashboard: ['start', 'dashboard'],
  all: ['start', 'dashboard', 'rest'],
};

export const NAMESPACES = [
  'account',
  'audit',
  'auth',
  'billing',
  'catalogue',
  'clients',
  'collections',
  'common',
  'connectors',
  'crm',
  'dashboard',
  'errors',
  'guardian',
  'hooks',
  'integrations',
  'layout',
  'news',
  'pages',
  'parsers',
  'plans',
  'referral',
  'speed',
  'superAdmin',
  'testLead',
  'translations',
  'widget',
] as const satisfies readonly (keyof Resources)[];

// The strings ship with the build; what the operator saved on the translations screen is loaded at
// start through the backend, every namespace in one call (GET /api/i18n?lng=<lng>&ns=<ns>+<ns>…:
// the shipped strings with the saved ones on top, revalidated by the browser with an ETag; i18next's
// multiload adapter gathers the namespaces' reads into it), so a corrected string shows after a
// reload with no deploy (docs/translations.md). Missing keys fall back to English (English to
// Ukrainian).
void i18n
  .use(MultiloadBackend)
  .use(initReactI18next)
  .init({
    // Filled by loadLanguage; an object (not undefined) so i18next never fetches the shipped
    // strings through the backend by itself: only loadSavedTranslations asks the server.
    resources: {},
    lng: uiLanguage(currentLocale()),
    fallbackLng: { en: ['uk'], default: ['en'] },
    backend: {
      backend: HttpBackend,
      backendOption: {
        loadPath: `${(import.meta.env.VITE_API_URL as string | undefined) ?? ''}/api/i18n?lng={{lng}}&ns={{ns}}`,
      },
    },
    // Every namespace read at once, so that the adapter gathers them into one call (i18next starts
    // 10 reads at a time by default: three calls).
    maxParallelReads: NAMESPACES.length,
    // Re-render when saved strings arrive, not only when the language changes.
    react: { bindI18n: 'languageChanged loaded' },
    // uk and en ship with the build; a language the operator added loads from the server.
    supportedLngs: false,
    ns: NAMESPACES,
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
  });

/**
 * Loads the operator's saved strings of the page's language over the shipped ones, now and on every
 * change of language (main.tsx calls it once at start; unit tests keep the shipped strings). A
 * failure only logs (spec 8). Returns what stops the reloads on a change of language (a test that
 * called it must: its test files share the i18n instance).
 */
export function loadSavedTranslations(): () => void {
  const load = (lng: string) =>
    i18n.reloadResources([lng], NAMESPACES).catch((error: unknown) => console.warn('translations', error));
  const onChange = (lng: string) => void load(lng);
  void load(i18n.language);
  i18n.on('languageChanged', onChange);
  return () => i18n.off('languageChanged', onChange);
}

/** The language whose shipped strings a UI language shows: uk, or English for en and added ones. */
function shippedLanguage(language: string): 'uk' | 'en' {
  return language === 'uk' ? 'uk' : 'en';
}

/** Adds one language's shipped strings (keeping any saved string already loaded over them). */
export function addShippedStrings(language: string, bundle: Record<string, object>): void {
  for (const [ns, strings] of Object.entries(bundle)) i18n.addResourceBundle(language, ns, strings, true, false);
}

const loading = new Map<string, Promise<void>>();

function loadChunk(language: string, part: Chunk): Promise<void> {
  const shipped = shippedLanguage(language);
  const key = `${shipped}:${part}`;
  let done = loading.get(key);
  if (!done) {
    done = BUNDLES[shipped][part]().then((m) => addShippedStrings(shipped, m.default));
    loading.set(key, done);
  }
  return done;
}

export function isLanguageLoaded(language: string): boolean {
  return i18n.hasResourceBundle(shippedLanguage(language), 'common');
}

/** Loads the shipped strings a UI language needs (once); a page renders only after. */
export async function loadLanguage(language: string, part: StringsPart = 'start'): Promise<void> {
  await Promise.all(PART_CHUNKS[part].map((chunk) => loadChunk(language, chunk)));
}

/** Switches i18next to the locale of the URL (dayjs follows it: lib/dayjs.ts). */
export function applyLocale(locale: Locale): void {
  const language = uiLanguage(locale);
  if (i18n.language !== language) void i18n.changeLanguage(language);
  document.documentElement.lang = language;
}

export { i18n };
