// The MCP tools' words in the account's language (issue 34): what the tools say they do, and the
// words beside each code in their answers. Codes stay codes; these only say them in words. Statuses
// and error sentences are the web's (apps/web/src/locales/*/hooks.json, integrations.json,
// errors.json), reasons the mail catalogue's (lib/mail/reasons.ts).
import type { DeliveryStatus, GuardianAlertKind, HookStatus, IntegrationStateCode, Locale } from '@leadrelay/shared';

interface Words {
  tools: Record<ToolName, string>;
  inputs: {
    query: string;
    limit: string;
    deliveryId: string;
    integrationId: string;
    fields: string;
    days: string;
    reportIntegrationId: string;
    openOnly: string;
  };
  testLead: { name: string; comment: string };
  state: Record<IntegrationStateCode, string>;
  hookStatus: Record<HookStatus, string>;
  deliveryStatus: Record<DeliveryStatus, string>;
  alertKind: Record<GuardianAlertKind, string>;
  errors: Record<McpErrorCode, string>;
  /** Why a resend or a test lead was refused, beside its error key. */
  refusals: { notFailed: string; notSource: string; inactive: string };
  summary: {
    integrations: (n: number) => string;
    leads: (n: number) => string;
    resent: string;
    testLead: (status: string) => string;
    speed: (leads: number, reacted: number, medianMin: number | null) => string;
    alerts: (open: number, all: number) => string;
    plan: (title: string, leads: number, limit: number | null) => string;
  };
  demoPlan: string;
}

export type ToolName =
  | 'list_integrations'
  | 'find_leads'
  | 'resend_delivery'
  | 'send_test_lead'
  | 'speed_report'
  | 'guardian_alerts'
  | 'plan_and_usage';

/** The API's error keys a tool answers with (packages/shared/src/errors.ts). */
export type McpErrorCode =
  | 'API_KEY_SCOPE'
  | 'HOOK_NOT_FOUND'
  | 'INTEGRATION_NOT_FOUND'
  | 'OPERATION_NOT_SUPPORTED'
  | 'VALIDATION_ERROR'
  | 'INTERNAL_ERROR';

const uk: Words = {
  tools: {
    list_integrations:
      'Інтеграції облікового запису (джерела й призначення) з їхнім станом і причиною, якщо щось не працює.',
    find_leads:
      'Знайти ліди за телефоном, e-mail або імʼям; для кожного — куди його надіслано, статус кожного надсилання і всі спроби.',
    resend_delivery:
      'Надіслати знову надсилання, що завершилося помилкою (deliveryId з find_leads). Потрібен ключ із правом запису.',
    send_test_lead:
      'Надіслати тестовий лід у джерело (integrationId з list_integrations): він пройде весь шлях до призначень і буде позначений як тестовий. Потрібен ключ із правом запису.',
    speed_report:
      'Швидкість реакції на ліди: медіана й 90-й перцентиль від отримання до першої реакції, частки за 5/15/60 хвилин — загалом, по днях, джерелах і менеджерах.',
    guardian_alerts:
      'Сповіщення вартового: посуха (джерело замовкло), закінчення доступу, відхилений доступ. Найновіші першими.',
    plan_and_usage: 'Тариф облікового запису, його ліміти і скільки використано цього місяця.',
  },
  inputs: {
    query: 'Телефон (у будь-якому записі), e-mail або частина імені',
    limit: 'Скільки лідів повернути, найновіші першими (1–20, типово 10)',
    deliveryId: 'Ідентифікатор надсилання (deliveries[].id у find_leads)',
    integrationId: 'Ідентифікатор інтеграції-джерела (list_integrations)',
    fields: 'Поля тестового ліда (name, phone, email, comment); типово — тестове імʼя',
    days: 'За скільки днів (1–92, типово 30)',
    reportIntegrationId: 'Лише це джерело (необовʼязково)',
    openOnly: 'Лише ті, що тривають',
  },
  testLead: { name: 'Тестовий лід', comment: 'Надіслано через MCP' },
  state: {
    not_configured: 'Не налаштовано',
    not_connected: 'Не підключено',
    no_destinations: 'Немає призначень',
    working: 'Працює',
    retrying: 'Повторні спроби',
    paused: 'Вимкнено',
    broken_auth: 'Помилка авторизації',
    broken_other: 'Не працює',
  },
  hookStatus: {
    accepted: 'Прийнято',
    filtered: 'Відфільтровано',
    duplicate: 'Дублікат',
    pending: 'Очікує',
    delivered: 'Доставлено',
    partial: 'Доставлено частково',
    failed: 'Помилка',
    held: 'Утримано',
  },
  deliveryStatus: {
    pending: 'Очікує',
    running: 'Надсилається',
    delivered: 'Доставлено',
    failed: 'Помилка',
    held: 'Утримано',
  },
  alertKind: { drought: 'Посуха', expiry: 'Закінчення доступу', access: 'Доступ відхилено' },
  errors: {
    API_KEY_SCOPE: 'Цей API-ключ лише для читання: змінювати дані він не може',
    HOOK_NOT_FOUND: 'Лід чи надсилання не знайдено',
    INTEGRATION_NOT_FOUND: 'Інтеграцію не знайдено',
    OPERATION_NOT_SUPPORTED: 'Ця дія тут неможлива',
    VALIDATION_ERROR: 'Перевірте значення параметрів',
    INTERNAL_ERROR: 'Помилка сервера. Спробуйте пізніше',
  },
  refusals: {
    notFailed: 'Надіслати знову можна лише надсилання зі статусом «Помилка»',
    notSource: 'Тестовий лід можна надіслати лише в джерело',
    inactive: 'Джерело вимкнено: увімкніть його, щоб надіслати тестовий лід',
  },
  summary: {
    integrations: (n) => `Інтеграцій: ${n}`,
    leads: (n) => `Знайдено лідів: ${n}`,
    resent: 'Надсилання поставлено в чергу знову',
    testLead: (status) => `Тестовий лід надіслано, статус: ${status}`,
    speed: (leads, reacted, median) =>
      `Лідів: ${leads}, з реакцією: ${reacted}${median === null ? '' : `, медіана: ${median} хв`}`,
    alerts: (open, all) => `Сповіщень: ${all}, тривають: ${open}`,
    plan: (title, leads, limit) =>
      `Тариф «${title}»: лідів цього місяця ${leads}${limit === null ? '' : ` з ${limit}`}`,
  },
  demoPlan: 'Демо',
};

const en: Words = {
  tools: {
    list_integrations:
      "The account's integrations (sources and destinations) with their state, and the reason when something is wrong.",
    find_leads:
      'Find leads by phone, e-mail or name; for each, where it was sent, the status of each delivery and every attempt.',
    resend_delivery: 'Send a failed delivery again (deliveryId from find_leads). Needs a key that may write.',
    send_test_lead:
      'Send a test lead into a source (integrationId from list_integrations): it goes all the way to the destinations, marked as a test. Needs a key that may write.',
    speed_report:
      'Speed to lead: median and 90th percentile from receipt to the first reaction, shares within 5/15/60 minutes: overall, per day, per source and per manager.',
    guardian_alerts:
      "The guardian's alerts: droughts (a source went quiet), access ending, access refused. Newest first.",
    plan_and_usage: "The account's plan, its limits and what is used this month.",
  },
  inputs: {
    query: 'A phone number (written any way), an e-mail address or part of a name',
    limit: 'How many leads to return, newest first (1–20, default 10)',
    deliveryId: 'The delivery id (deliveries[].id in find_leads)',
    integrationId: 'The source integration id (list_integrations)',
    fields: "The test lead's fields (name, phone, email, comment); default a test name",
    days: 'How many days back (1–92, default 30)',
    reportIntegrationId: 'Only this source (optional)',
    openOnly: 'Only the ongoing ones',
  },
  testLead: { name: 'Test lead', comment: 'Sent through MCP' },
  state: {
    not_configured: 'Not configured',
    not_connected: 'Not connected',
    no_destinations: 'No destinations',
    working: 'Working',
    retrying: 'Retrying',
    paused: 'Off',
    broken_auth: 'Authorization error',
    broken_other: 'Not working',
  },
  hookStatus: {
    accepted: 'Accepted',
    filtered: 'Filtered',
    duplicate: 'Duplicate',
    pending: 'Pending',
    delivered: 'Delivered',
    partial: 'Partly delivered',
    failed: 'Failed',
    held: 'Held',
  },
  deliveryStatus: {
    pending: 'Pending',
    running: 'Sending',
    delivered: 'Delivered',
    failed: 'Failed',
    held: 'Held',
  },
  alertKind: { drought: 'Drought', expiry: 'Access ending', access: 'Access refused' },
  errors: {
    API_KEY_SCOPE: 'This API key is read-only: it cannot change anything',
    HOOK_NOT_FOUND: 'Lead or delivery not found',
    INTEGRATION_NOT_FOUND: 'Integration not found',
    OPERATION_NOT_SUPPORTED: 'This cannot be done here',
    VALIDATION_ERROR: 'Check the parameters',
    INTERNAL_ERROR: 'Server error. Try again later',
  },
  refusals: {
    notFailed: 'Only a failed delivery can be sent again',
    notSource: 'A test lead can only be sent into a source',
    inactive: 'The source is off: switch it on to send a test lead',
  },
  summary: {
    integrations: (n) => `Integrations: ${n}`,
    leads: (n) => `Leads found: ${n}`,
    resent: 'The delivery is queued again',
    testLead: (status) => `Test lead sent, status: ${status}`,
    speed: (leads, reacted, median) =>
      `Leads: ${leads}, reacted to: ${reacted}${median === null ? '' : `, median: ${median} min`}`,
    alerts: (open, all) => `Alerts: ${all}, ongoing: ${open}`,
    plan: (title, leads, limit) => `Plan "${title}": ${leads}${limit === null ? '' : ` of ${limit}`} leads this month`,
  },
  demoPlan: 'Demo',
};

const WORDS: Record<Locale, Words> = { uk, en };

export const wordsOf = (locale: Locale): Words => WORDS[locale];
