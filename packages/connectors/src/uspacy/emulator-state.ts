// The Uspacy emulator's data and runtime: the seeded portal (users, funnels with stages, fields of
// leads, deals and contacts), the records deliveries make, issued tokens and webhook keys, and the
// emulator kit's switches.
import type { EmulatorFault, EmulatorKit } from '../kit/emulator-kit';

export interface UspacyFault extends EmulatorFault {
  /**
   * 401: Uspacy's own "Unauthenticated."; 429 (with retryAfter); 5xx; 422: a Laravel validation
   * error; 200: an error inside a 200 ({status: false, message}).
   */
  status?: number;
  /**
   * The call is carried out (a record is made), then the connection drops before the answer: what a
   * timeout after Uspacy's write looks like to the caller. `status` is not used.
   */
  isAnswerLost?: boolean;
  /** Retry-After in seconds. */
  retryAfter?: number;
  /** Only calls whose "METHOD /path" contains this (default: every call but the control API). */
  match?: string;
  message?: string;
}

export interface EmulatedCall {
  method: string;
  /** The API path, without the incoming webhook's prefix. */
  path: string;
  query: Record<string, string>;
  body: unknown;
  auth: 'bearer' | 'webhook' | 'none';
  status: number;
}

export interface SeedUser {
  id: number;
  firstName: string;
  lastName: string;
  email: { value: string; type: string; main: boolean }[];
  active: boolean;
}

export interface SeedStage {
  id: number;
  title: string;
  sort: number;
  stage_code: string;
  color: string;
  system_stage: boolean;
  funnel_id: number;
}

export interface SeedFunnel {
  id: number;
  title: string;
  funnel_code: string;
  default: boolean;
  active: boolean;
  stages: SeedStage[];
}

export interface SeedField {
  name: string;
  code: string;
  type: string;
  required: boolean;
  editable: boolean;
  show: boolean;
  hidden: boolean;
  multiple: boolean;
  system_field: boolean;
  values?: { title: string; value: string; color: string; sort: number; selected: boolean }[];
}

export type EntityName = 'leads' | 'deals' | 'contacts';
export type StoredRecord = Record<string, unknown> & { id: number };

export interface StoredComment {
  id: number;
  entityType: string;
  entityId: number;
  authorId: number;
  message: string;
  date: number;
}

const stage = (funnel_id: number, id: number, title: string, sort: number, code = '', system = false): SeedStage => ({
  id,
  title,
  sort,
  stage_code: code || `stage_${id}`,
  color: system ? (code === 'SUCCESS' ? '#52c41a' : '#f5222d') : '#1677ff',
  system_stage: system,
  funnel_id,
});

const funnel = (id: number, title: string, isDefault: boolean, stages: [number, string][]): SeedFunnel => ({
  id,
  title,
  funnel_code: `funnel_${id}`,
  default: isDefault,
  active: true,
  stages: [
    ...stages.map(([sid, t], i) => stage(id, sid, t, (i + 1) * 10)),
    stage(id, id * 100 + 98, 'Успішно', 1000, 'SUCCESS', true),
    stage(id, id * 100 + 99, 'Провалено', 1010, 'FAIL', true),
  ],
});

const field = (
  code: string,
  name: string,
  type: string,
  more: Partial<SeedField> & { options?: [string, string][] } = {},
): SeedField => {
  const { options, ...rest } = more;
  return {
    name,
    code,
    type,
    required: false,
    editable: true,
    show: true,
    hidden: false,
    multiple: false,
    system_field: false,
    ...(options
      ? {
          values: options.map(([value, title], i) => ({ title, value, color: '#999', sort: i * 10, selected: false })),
        }
      : {}),
    ...rest,
  };
};

const system = (code: string, name: string, type: string, more: Parameters<typeof field>[3] = {}) =>
  field(code, name, type, { system_field: true, ...more });

const personFields = [
  system('first_name', "Ім'я", 'string'),
  system('last_name', 'Прізвище', 'string'),
  system('phone', 'Телефон', 'phone', { multiple: true }),
  system('email', 'E-mail', 'email', { multiple: true }),
];
const bookkeeping = [
  system('id', 'ID', 'id_column', { editable: false }),
  system('owner', 'Відповідальний', 'user_id'),
  system('comments', 'Коментар', 'textarea'),
  system('created_at', 'Створено', 'datetime', { editable: false }),
  system('created_by', 'Ким створено', 'user_id', { editable: false }),
];
const utm = ['source', 'medium', 'campaign', 'content', 'term'].map((k) => system(`utm_${k}`, `UTM ${k}`, 'utm'));

/** What a fresh emulator holds: the portal's people, funnels and fields. Records start empty. */
export const USPACY_SEED = {
  users: [
    { id: 1, firstName: 'Анна', lastName: 'Коваль', email: 'anna@demo.test', active: true },
    { id: 2, firstName: 'Богдан', lastName: 'Мельник', email: 'bohdan@demo.test', active: true },
    { id: 3, firstName: 'Вікторія', lastName: 'Лисенко', email: 'viktoria@demo.test', active: false },
  ].map(
    (u): SeedUser => ({
      id: u.id,
      firstName: u.firstName,
      lastName: u.lastName,
      email: [{ value: u.email, type: 'work', main: true }],
      active: u.active,
    }),
  ),
  funnels: {
    leads: [
      funnel(1, 'Вхідні заявки', true, [
        [101, 'Нова'],
        [102, 'Кваліфікація'],
      ]),
      funnel(2, 'Партнери', false, [
        [201, 'Запит'],
        [202, 'Переговори'],
      ]),
    ],
    deals: [
      funnel(3, 'Продажі', true, [
        [301, 'Нова угода'],
        [302, 'Рахунок виставлено'],
      ]),
      funnel(4, 'Опт', false, [
        [401, 'Запит прайсу'],
        [402, 'Замовлення'],
      ]),
    ],
  } satisfies Record<'leads' | 'deals', SeedFunnel[]>,
  fields: {
    leads: [
      system('title', 'Назва', 'string', { required: true }),
      ...personFields,
      ...bookkeeping,
      system('funnel_id', 'Воронка', 'funnel'),
      system('kanban_stage_id', 'Стадія', 'stage'),
      system('source', 'Джерело', 'list', {
        options: [
          ['site', 'Сайт'],
          ['facebook', 'Facebook'],
          ['instagram', 'Instagram'],
        ],
      }),
      system('company_name', 'Назва компанії', 'string'),
      ...utm,
      field('city', 'Місто', 'string'),
      field('budget', 'Бюджет', 'integer'),
      field('product', 'Продукт', 'list', {
        options: [
          ['basic', 'Базовий'],
          ['pro', 'Професійний'],
        ],
      }),
      field('channels', 'Канали звʼязку', 'list', {
        multiple: true,
        options: [
          ['phone', 'Телефон'],
          ['telegram', 'Telegram'],
          ['viber', 'Viber'],
        ],
      }),
      field('call_at', 'Зателефонувати', 'datetime'),
      field('internal_score', 'Службова оцінка', 'integer', { hidden: true }),
    ],
    deals: [
      system('title', 'Назва', 'string', { required: true }),
      ...bookkeeping,
      system('funnel_id', 'Воронка', 'funnel'),
      system('kanban_stage_id', 'Стадія', 'stage'),
      system('contacts', 'Контакти', 'entity_reference', { multiple: true }),
      ...utm,
      field('amount_of_the_deal', 'Сума угоди', 'money'),
      field('delivery_date', 'Дата доставки', 'datetime'),
      field('promo', 'Промокод', 'string'),
    ],
    contacts: [
      system('title', 'Назва', 'string', { required: true }),
      ...personFields,
      ...bookkeeping,
      field('position', 'Посада', 'string'),
      field('birthday', 'День народження', 'datetime'),
      field('vip', 'VIP', 'boolean'),
    ],
  } satisfies Record<EntityName, SeedField[]>,
};

export interface UspacyStore {
  leads: StoredRecord[];
  deals: StoredRecord[];
  contacts: StoredRecord[];
  comments: StoredComment[];
  nextId: number;
}

export const emptyStore = (): UspacyStore => ({ leads: [], deals: [], contacts: [], comments: [], nextId: 1 });

export function clearStore(store: UspacyStore): void {
  Object.assign(store, emptyStore());
}

export interface UspacyRuntime {
  kit: EmulatorKit<UspacyFault, EmulatedCall>;
  store: UspacyStore;
  /** The account that signs in (user 1). */
  account: { email: string; password: string; twoFactorCode?: string };
  /** Access tokens issued: JWT → its user and expiry (epoch ms; 0 = expired). */
  accessTokens: Map<string, { userId: number; expiresAt: number }>;
  /** Refresh tokens that still work (each is spent by its refresh). */
  refreshTokens: Map<string, number>;
  /** Incoming webhook keys that work, and the user they act as. */
  webhookKeys: Map<string, number>;
  ttlSeconds: number;
  refreshes: number;
  signIns: number;
  /** Whether GET …/funnel lists each funnel's stages (else only …/kanban/stage?funnel_id does). */
  funnelsWithStages: boolean;
  /** The portal's host as its tokens name it (the JWT's `domain`). */
  domain: () => string;
}
