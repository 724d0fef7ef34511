// The Bitrix24 emulator's data: the seeded portal (users, deal pipelines, their stage directories,
// contacts already in the CRM) and the records deliveries make. Names are Ukrainian, as a portal of
// our users would have them.

export interface Bitrix24Fault {
  /** Fail this many requests, then clear; default: until cleared. */
  times?: number;
  /**
   * The HTTP status; `error` the Bitrix24 error code in the body (default by status: 401
   * NO_AUTH_FOUND, 403 INVALID_CREDENTIALS, 503 INTERNAL_SERVER_ERROR, 500 INTERNAL_SERVER_ERROR).
   */
  status?: number;
  error?: string;
  /** The method is carried out (a record is made), then the connection drops before the answer. */
  isAnswerLost?: boolean;
  /** Retry-After in seconds (a proxy in front of the portal; Bitrix24 itself sends none). */
  retryAfter?: number;
  /** Only this REST method (e.g. "crm.deal.add"); default every method. */
  method?: string;
}

export interface EmulatedCall {
  method: string;
  params: unknown;
  status: number;
}

export interface SeedUser {
  ID: string;
  NAME: string;
  LAST_NAME: string;
  EMAIL: string;
  ACTIVE: boolean;
  USER_TYPE: 'employee';
}

export interface SeedStatus {
  ID: string;
  ENTITY_ID: string;
  STATUS_ID: string;
  NAME: string;
  SORT: string;
  SYSTEM: 'Y' | 'N';
  CATEGORY_ID: string | null;
  SEMANTICS: 'S' | 'F' | null;
  EXTRA: { SEMANTICS: 'process' | 'success' | 'failure'; COLOR: string };
}

export type StoredRecord = Record<string, unknown> & { ID: string };

const status = (
  ID: number,
  ENTITY_ID: string,
  STATUS_ID: string,
  NAME: string,
  SORT: number,
  semantics: 'process' | 'success' | 'failure' = 'process',
): SeedStatus => ({
  ID: String(ID),
  ENTITY_ID,
  STATUS_ID,
  NAME,
  SORT: String(SORT),
  SYSTEM: semantics === 'process' && SORT > 10 ? 'N' : 'Y',
  CATEGORY_ID: ENTITY_ID === 'DEAL_STAGE' ? null : ENTITY_ID.replace('DEAL_STAGE_', ''),
  SEMANTICS: semantics === 'success' ? 'S' : semantics === 'failure' ? 'F' : null,
  EXTRA: { SEMANTICS: semantics, COLOR: '#39A8EF' },
});

export const BITRIX24_SEED = {
  users: [
    { ID: '1', NAME: 'Анна', LAST_NAME: 'Коваль', EMAIL: 'anna@demo.test', ACTIVE: true, USER_TYPE: 'employee' },
    { ID: '2', NAME: 'Богдан', LAST_NAME: 'Мельник', EMAIL: 'bohdan@demo.test', ACTIVE: true, USER_TYPE: 'employee' },
    { ID: '3', NAME: 'Віра', LAST_NAME: 'Стара', EMAIL: 'vira@demo.test', ACTIVE: false, USER_TYPE: 'employee' },
  ] satisfies SeedUser[],
  /** crm.category.list (entityTypeId 2) answers these, as the documentation's example does. */
  categories: [
    { id: 0, name: 'Загальна', sort: 100, entityTypeId: 2, isDefault: 'Y' },
    { id: 1, name: 'Опт', sort: 200, entityTypeId: 2, isDefault: 'N', originId: '', originatorId: '' },
  ],
  statuses: [
    status(101, 'DEAL_STAGE', 'NEW', 'Нова', 10),
    status(103, 'DEAL_STAGE', 'PREPARATION', 'Підготовка документів', 20),
    status(107, 'DEAL_STAGE', 'EXECUTING', 'В роботі', 40),
    status(109, 'DEAL_STAGE', 'WON', 'Угода успішна', 60, 'success'),
    status(111, 'DEAL_STAGE', 'LOSE', 'Угода провалена', 70, 'failure'),
    status(201, 'DEAL_STAGE_1', 'C1:NEW', 'Новий опт', 10),
    status(203, 'DEAL_STAGE_1', 'C1:PREPARATION', 'Переговори', 20),
    status(205, 'DEAL_STAGE_1', 'C1:WON', 'Відвантажено', 60, 'success'),
    status(207, 'DEAL_STAGE_1', 'C1:LOSE', 'Відмова', 70, 'failure'),
    status(301, 'STATUS', 'NEW', 'Не оброблений', 10),
    status(303, 'STATUS', 'IN_PROCESS', 'В роботі', 20),
  ] satisfies SeedStatus[],
  /** A customer the CRM already has: a lead with this phone or e-mail finds this contact. */
  contacts: [
    {
      ID: '7',
      NAME: 'Марія',
      LAST_NAME: 'Шевченко',
      PHONE: [{ ID: '71', VALUE_TYPE: 'WORK', VALUE: '+380671112233', TYPE_ID: 'PHONE' }],
      EMAIL: [{ ID: '72', VALUE_TYPE: 'WORK', VALUE: 'maria@example.com', TYPE_ID: 'EMAIL' }],
    },
  ] as StoredRecord[],
};

export interface Bitrix24Store {
  leads: StoredRecord[];
  deals: StoredRecord[];
  contacts: StoredRecord[];
  nextId: number;
}

export const emptyStore = (): Bitrix24Store => ({
  leads: [],
  deals: [],
  contacts: BITRIX24_SEED.contacts.map((c) => structuredClone(c)),
  nextId: 1000,
});

export function clearStore(store: Bitrix24Store): void {
  Object.assign(store, emptyStore());
}
