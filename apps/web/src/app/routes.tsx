// The route table (spec section 2), declared once; both language variants are generated from it.
import { type ComponentType, lazy, Suspense } from 'react';
import type { RouteObject } from 'react-router';
import { FullPageSpinner } from '../components/full-page-spinner';
import { importWithReload } from '../lib/chunk-reload';
import { i18n, loadLanguage, type StringsPart } from '../lib/i18n';
import type { RoleRule, RouteHandle, TitleKey } from '../lib/route-handle';
import { GuestOnly, RequireAuth } from './guards';
import { LocaleRoot } from './locale-root';

type Loader = () => Promise<ComponentType>;

export interface PageRoute {
  /** Relative to the language root; '' is the group's index. */
  path: string;
  title: TitleKey;
  /** The route component; absent means the "coming in a later release" panel. */
  page?: Loader;
  /** Needs an active account (paid or demo not expired). */
  active?: boolean;
  role?: RoleRule;
  /** The strings the page needs before it shows, when fewer than its group's (lib/i18n.ts). */
  strings?: StringsPart;
  /** Plain markup without antd, shown before antd loads (/signin); every other page gets antd's theme. */
  plain?: boolean;
  children?: PageRoute[];
}

export type LayoutName = 'admin' | 'default' | 'empty' | 'error' | 'super-admin' | 'widget';
export interface RouteGroup {
  layout: LayoutName;
  /** guest: signed-in users go to /admin; auth: signed-out users go to /signin. */
  access: 'public' | 'guest' | 'auth';
  routes: PageRoute[];
}

const auth = (name: string): Loader => {
  const pages: Record<string, () => Promise<ComponentType>> = {
    signin: () => import('../features/auth/pages/signin-page').then((m) => m.SigninPage),
    signup: () => import('../features/auth/pages/signup-page').then((m) => m.SignupPage),
    recovery: () => import('../features/auth/pages/recovery-page').then((m) => m.RecoveryPage),
    password: () => import('../features/auth/pages/password-page').then((m) => m.PasswordPage),
    confirm: () => import('../features/auth/pages/confirm-page').then((m) => m.ConfirmPage),
    enter: () => import('../features/auth/pages/enter-page').then((m) => m.EnterPage),
    logout: () => import('../features/auth/pages/logout-page').then((m) => m.LogoutPage),
  };
  return pages[name] as Loader;
};

const integrations = (name: 'list' | 'create' | 'type' | 'typeDetail'): Loader => {
  const pages = {
    list: () => import('../features/integrations/pages/integrations-page').then((m) => m.IntegrationsPage),
    create: () => import('../features/integrations/pages/create-page').then((m) => m.CreatePage),
    // A connector's own pages from its manifest, the generic ones for any other type.
    type: () => import('./integration-type').then((m) => m.IntegrationTypePage),
    typeDetail: () => import('./integration-type').then((m) => m.IntegrationTypeDetailPage),
  };
  return pages[name];
};

// E-mail parsers (issue 15): privileged roles only.
const parsers = (name: 'list' | 'create' | 'detail'): Loader => {
  const pages = {
    list: () => import('../features/parsers/pages/parsers-page').then((m) => m.ParsersPage),
    create: () => import('../features/parsers/pages/parser-create-page').then((m) => m.ParserCreatePage),
    detail: () => import('./parser-detail').then((m) => m.ParserDetailPage),
  };
  return pages[name];
};

// The integration catalogue tabs of the super-admin area (issue 13).
const catalogue = (name: 'types' | 'categories' | 'modules'): Loader => {
  const pages = {
    types: () => import('../features/super-admin/pages/catalogue-types-page').then((m) => m.CatalogueTypesPage),
    categories: () =>
      import('../features/super-admin/pages/catalogue-categories-page').then((m) => m.CatalogueCategoriesPage),
    modules: () => import('../features/super-admin/pages/catalogue-modules-page').then((m) => m.CatalogueModulesPage),
  };
  return pages[name];
};

// The operator's area (issue 13): clients, enter as a user, translations, the audit log.
const operator = (name: 'clients' | 'user' | 'language' | 'audit'): Loader => {
  const pages = {
    clients: () => import('../features/clients/pages/clients-page').then((m) => m.ClientsPage),
    user: () => import('../features/clients/pages/user-page').then((m) => m.UserPage),
    language: () => import('../features/translations/pages/language-page').then((m) => m.LanguagePage),
    audit: () => import('../features/audit/pages/audit-page').then((m) => m.AuditPage),
  };
  return pages[name];
};

export const ROUTE_GROUPS: RouteGroup[] = [
  {
    layout: 'admin',
    access: 'guest',
    routes: [
      { path: 'signup', title: 'signup', page: auth('signup') },
      { path: 'signin', title: 'signin', plain: true, page: auth('signin') },
      { path: 'recovery', title: 'recovery', page: auth('recovery') },
      { path: 'password/:token?', title: 'password', page: auth('password') },
    ],
  },
  { layout: 'empty', access: 'guest', routes: [{ path: 'confirm', title: 'confirm', page: auth('confirm') }] },
  { layout: 'empty', access: 'public', routes: [{ path: 'enter', title: 'enter', page: auth('enter') }] },
  {
    layout: 'admin',
    access: 'public',
    routes: [
      {
        path: 'news',
        title: 'news',
        page: () => import('../features/news/pages/news-page').then((m) => m.NewsPage),
      },
      {
        path: 'news/:id',
        title: 'newsPost',
        page: () => import('../features/news/pages/news-post-page').then((m) => m.NewsPostPage),
      },
      {
        path: 'test',
        title: 'test',
        page: () => import('../features/test-lead/pages/test-page').then((m) => m.TestPage),
      },
    ],
  },
  {
    layout: 'default',
    access: 'auth',
    routes: [
      {
        path: 'admin',
        title: 'dashboard',
        strings: 'dashboard',
        page: () => import('../features/dashboard/pages/dashboard-page').then((m) => m.DashboardPage),
      },
      {
        path: 'admin/account',
        title: 'account',
        page: () => import('../features/account/pages/account-page').then((m) => m.AccountPage),
      },
      {
        path: 'admin/billing',
        title: 'billing',
        page: () => import('../features/billing/pages/billing-page').then((m) => m.BillingPage),
      },
      {
        path: 'admin/plan',
        title: 'plan',
        page: () => import('../features/plans/pages/plan-page').then((m) => m.PlanPage),
      },
      { path: 'admin/logout', title: 'logout', page: auth('logout') },
      { path: 'admin/clients', title: 'clients', active: true, role: 'privileged', page: operator('clients') },
      {
        path: 'admin/collections',
        title: 'collections',
        active: true,
        page: () => import('../features/collections/pages/collections-page').then((m) => m.CollectionsPage),
      },
      // Every role gets the picker: the catalogue it reads offers each role what it may create.
      { path: 'admin/create', title: 'create', active: true, page: integrations('create') },
      { path: 'admin/integrations', title: 'integrations', active: true, page: integrations('list') },
      { path: 'admin/language', title: 'language', active: true, role: 'privileged', page: operator('language') },
      { path: 'admin/list', title: 'list', active: true, role: 'privileged', page: integrations('create') },
      { path: 'admin/parsers', title: 'parsers', active: true, role: 'privileged', page: parsers('list') },
      {
        path: 'admin/parsers/create',
        title: 'parserCreate',
        active: true,
        role: 'privileged',
        page: parsers('create'),
      },
      { path: 'admin/parsers/:id', title: 'parser', active: true, role: 'privileged', page: parsers('detail') },
      {
        path: 'admin/speed',
        title: 'speed',
        active: true,
        page: () => import('../features/speed/pages/speed-page').then((m) => m.SpeedPage),
      },
      {
        path: 'admin/guardian',
        title: 'guardian',
        active: true,
        page: () => import('../features/guardian/pages/guardian-page').then((m) => m.GuardianPage),
      },
      {
        path: 'admin/referral',
        title: 'referral',
        active: true,
        page: () => import('../features/referral/pages/referral-page').then((m) => m.ReferralPage),
      },
      { path: 'admin/user', title: 'user', active: true, role: 'privileged', page: operator('user') },
      {
        path: 'admin/widget',
        title: 'widget',
        active: true,
        page: () => import('../features/widget/pages/widget-admin-page').then((m) => m.WidgetAdminPage),
      },
      // Every type: a connector whose manifest describes its pages gets them (its title is its own;
      // /admin/integrations/<slug>/connect is its OAuth return when its manifest has one, and a
      // connector with account connections names the path of its integrations list).
      { path: 'admin/integrations/:type', title: 'integration', active: true, page: integrations('type') },
      { path: 'admin/integrations/:type/:id', title: 'integration', active: true, page: integrations('typeDetail') },
    ],
  },
  {
    layout: 'super-admin',
    access: 'auth',
    routes: [
      {
        path: 'admin/super',
        title: 'superErrors',
        role: 'privileged',
        page: () => import('../features/super-admin/pages/errors-page').then((m) => m.ErrorsPage),
      },
      { path: 'admin/super/clients', title: 'superClients', role: 'privileged', page: operator('clients') },
      { path: 'admin/super/language', title: 'superLanguage', role: 'privileged', page: operator('language') },
      { path: 'admin/super/audit', title: 'superAudit', role: 'privileged', page: operator('audit') },
      {
        path: 'admin/super/integrations',
        title: 'superIntegrations',
        role: 'privileged',
        page: () => import('./layouts/super-integrations-tabs').then((m) => m.SuperIntegrationsTabs),
        children: [
          { path: '', title: 'superIntegrationTypes', role: 'privileged', page: catalogue('types') },
          { path: 'categories', title: 'superCategories', role: 'privileged', page: catalogue('categories') },
          { path: 'modules', title: 'superModules', role: 'privileged', page: catalogue('modules') },
        ],
      },
      {
        path: 'admin/super/tariffs',
        title: 'superTariffs',
        role: 'owner',
        page: () => import('../features/plans/pages/tariffs-page').then((m) => m.TariffsPage),
      },
    ],
  },
  {
    layout: 'widget',
    access: 'public',
    routes: [
      {
        path: 'widgets/pipedrive-sendpulse',
        title: 'widgetPipedriveSendpulse',
        page: () => import('../features/widget/pages/widget-page').then((m) => m.WidgetPage),
      },
    ],
  },
];

/** A route's component inside antd's theme (app/themed.tsx), loaded beside it. */
const withTheme =
  (load: Loader, inline = false): Loader =>
  async () => {
    const [Component, { themed }] = await Promise.all([load(), import('./themed')]);
    return themed(Component, inline);
  };

/**
 * The layouts. The public one (the auth pages, news) is plain markup, so /signin shows before antd
 * loads: its antd pages bring the theme themselves (`toRouteObject`). The others wrap their pages in it.
 */
const LAYOUTS: Record<LayoutName, Loader> = {
  admin: () => import('./layouts/admin-layout').then((m) => m.AdminLayout),
  default: withTheme(() => import('./layouts/default-layout').then((m) => m.DefaultLayout)),
  empty: withTheme(() => import('./layouts/empty-layout').then((m) => m.EmptyLayout)),
  error: withTheme(() => import('./layouts/error-layout').then((m) => m.ErrorLayout)),
  'super-admin': withTheme(() => import('./layouts/super-admin-layout').then((m) => m.SuperAdminLayout)),
  widget: withTheme(() => import('./layouts/widget-layout').then((m) => m.WidgetLayout)),
};
/** The layouts without antd's theme: their pages are themed one by one unless `plain`. */
const PLAIN_LAYOUTS: ReadonlySet<LayoutName> = new Set(['admin']);

const comingSoon: Loader = () => import('../components/coming-soon').then((m) => m.ComingSoon);
// A route's code and the strings it shows load together: the auth pages need only the first
// strings chunk, the dashboard those and its own, the rest of the app every namespace (lib/i18n.ts).
const lazyComponent =
  (load: Loader, strings: StringsPart = 'start') =>
  async () => {
    const [Component] = await Promise.all([importWithReload(load), loadLanguage(i18n.language, strings)]);
    return { Component };
  };

function toRouteObject(route: PageRoute, strings: StringsPart, themeIt = false): RouteObject {
  const handle: RouteHandle = { title: route.title, active: route.active, role: route.role };
  const page = route.page ?? comingSoon;
  const lazy = lazyComponent(themeIt && !route.plain ? withTheme(page, true) : page, route.strings ?? strings);
  if (route.path === '') return { index: true, handle, lazy };
  return {
    path: route.path,
    handle,
    lazy,
    children: route.children?.map((child) => toRouteObject(child, strings, themeIt)),
  };
}

function groupElement(access: RouteGroup['access']) {
  if (access === 'guest') return <GuestOnly />;
  if (access === 'auth') return <RequireAuth />;
  return undefined;
}

/** The children of one language root. */
export function localeChildren(): RouteObject[] {
  return [
    { index: true, lazy: lazyComponent(() => import('./home-redirect').then((m) => m.HomeRedirect)) },
    ...ROUTE_GROUPS.map((group): RouteObject => {
      const strings: StringsPart = group.access === 'guest' ? 'start' : 'all';
      // An account layout shows with the dashboard's strings; its other pages bring the rest.
      const layoutStrings: StringsPart = group.access === 'auth' ? 'dashboard' : strings;
      return {
        element: groupElement(group.access),
        children: [
          {
            lazy: lazyComponent(LAYOUTS[group.layout], layoutStrings),
            children: group.routes.map((route) => toRouteObject(route, strings, PLAIN_LAYOUTS.has(group.layout))),
          },
        ],
      };
    }),
    {
      lazy: lazyComponent(LAYOUTS.error),
      children: [
        {
          path: '*',
          handle: { title: 'home' },
          lazy: lazyComponent(() => import('../components/not-found').then((m) => m.NotFound)),
        },
      ],
    },
  ];
}

// The error page is its own chunk: a first load that goes well never fetches it.
const LazyRouteErrorPage = lazy(() => import('./route-error').then((m) => ({ default: m.RouteErrorPage })));
const routeError = (
  <Suspense fallback={<FullPageSpinner />}>
    <LazyRouteErrorPage />
  </Suspense>
);

/** Both variants: no prefix is Ukrainian, /en is English. */
export function buildRoutes(): RouteObject[] {
  // The spinner shows while the first page's lazy route loads (react-router's HydrateFallback).
  const root = (locale: 'uk' | 'en'): RouteObject => ({
    path: locale === 'uk' ? '/' : '/en',
    element: <LocaleRoot locale={locale} />,
    errorElement: routeError,
    hydrateFallbackElement: <FullPageSpinner />,
    children: localeChildren(),
  });
  return [root('uk'), root('en')];
}

/** Every path pattern of the table without prefix, e.g. '/admin/parsers/:id'. */
export function routePatterns(): string[] {
  const out: string[] = ['/'];
  const walk = (routes: PageRoute[], base: string) => {
    for (const r of routes) {
      const full = r.path === '' ? base : `${base}/${r.path}`;
      out.push(full);
      if (r.children) walk(r.children, full);
    }
  };
  for (const g of ROUTE_GROUPS) walk(g.routes, '');
  return [...new Set(out)];
}
