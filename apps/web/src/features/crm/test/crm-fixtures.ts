// amoCRM and Pipedrive integrations and CRM answers shaped like packages/shared/src/crm.ts; tests only.
import type { Integration } from '@leadrelay/shared';
import { makeIntegration } from '../../../test/integration-fixtures';

export const AMO_ID = '55555555-5555-4555-8555-555555555555';
export const PD_ID = '66666666-6666-4666-8666-666666666666';

export const amoIntegration = (overrides: Partial<Integration> = {}) =>
  makeIntegration({
    _id: AMO_ID,
    name: 'Відділ продажу',
    type: 'amocrm',
    kind: 'destination',
    category: { _id: 'c-crm', name: 'CRM' },
    isConnected: true,
    settings: { contactPolicy: 'attach', note: true },
    ...overrides,
  });

export const pdIntegration = (overrides: Partial<Integration> = {}) =>
  makeIntegration({
    _id: PD_ID,
    name: 'Pipedrive продажі',
    type: 'pipedrive',
    kind: 'destination',
    category: { _id: 'c-crm', name: 'CRM' },
    isConnected: true,
    settings: { target: 'lead', organization: false, note: true },
    ...overrides,
  });

export const amoPipelines = [
  {
    id: 100,
    name: 'Продажі',
    isMain: true,
    statuses: [
      { id: 1001, name: 'Нерозібране', type: 1 },
      { id: 1002, name: 'Перший контакт', type: 0 },
    ],
  },
  {
    id: 200,
    name: 'Опт',
    isMain: false,
    statuses: [
      { id: 2001, name: 'Новий запит', type: 0 },
      { id: 2002, name: 'Прайс надіслано', type: 0 },
    ],
  },
];
export const amoUsers = [
  { id: 7001, name: 'Олена Коваль', email: 'olena@shop.ua' },
  { id: 7002, name: 'Іван Петренко' },
];
export const amoFields = {
  lead: [
    { id: 301, name: 'Бюджет клієнта', type: 'numeric' },
    {
      id: 302,
      name: 'Джерело',
      type: 'select',
      enums: [
        { id: 9001, value: 'Facebook' },
        { id: 9002, value: 'Сайт' },
      ],
    },
  ],
  contact: [{ id: 401, name: 'Посада', type: 'text', code: 'POSITION' }],
};
