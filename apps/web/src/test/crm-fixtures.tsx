// amoCRM, Pipedrive and Uspacy integrations and CRM answers shaped like packages/shared/src/crm.ts and
// uspacy.ts, and their pages as the generic routes draw them from the manifests; tests only.
import type { Integration } from '@leadrelay/shared';
import { ConnectorDetailPage, ConnectorListPage } from '../components/connector-page/connector-pages';
import { loadManifest } from '../lib/connectors/manifests';
import { makeIntegration } from './integration-fixtures';

/** A connector's list and detail pages drawn from its manifest, as /admin/integrations/:type(/:id) draws them. */
export async function connectorPages(slug: string) {
  const manifest = await loadManifest(slug);
  if (!manifest?.page) throw new Error(`the ${slug} manifest describes no page`);
  const withPage = { ...manifest, page: manifest.page };
  return {
    list: <ConnectorListPage manifest={withPage} />,
    detail: <ConnectorDetailPage manifest={withPage} />,
  };
}

/** The path of a connector's loader (GET /api/integrations/:id/:type/lists/:list). */
export const listPath = (id: string, type: string, list: string) => `GET /api/integrations/${id}/${type}/lists/${list}`;

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

export const US_ID = '77777777-7777-4777-8777-777777777777';

export const usIntegration = (overrides: Partial<Integration> = {}) =>
  makeIntegration({
    _id: US_ID,
    name: 'Uspacy продажі',
    type: 'uspacy',
    kind: 'destination',
    category: { _id: 'c-crm', name: 'CRM' },
    isConnected: true,
    settings: { target: 'lead', note: true },
    ...overrides,
  });

const stage = (id: number, title: string, sort: number, isSystem = false) => ({ id, title, sort, isSystem });
export const usFunnels = {
  lead: [
    {
      id: 1,
      title: 'Вхідні заявки',
      isDefault: true,
      stages: [stage(101, 'Нова', 10), stage(102, 'Кваліфікація', 20), stage(198, 'Успішно', 1000, true)],
    },
  ],
  deal: [
    { id: 3, title: 'Продажі', isDefault: true, stages: [stage(301, 'Нова угода', 10)] },
    {
      id: 4,
      title: 'Опт',
      isDefault: false,
      stages: [stage(402, 'Замовлення', 20), stage(401, 'Запит прайсу', 10), stage(499, 'Провалено', 1010, true)],
    },
  ],
};
const field = (code: string, name: string, type = 'string') => ({ code, name, type, required: false, multiple: false });
export const usFields = {
  lead: [field('city', 'Місто'), field('budget', 'Бюджет', 'integer')],
  deal: [field('promo', 'Промокод'), field('amount_of_the_deal', 'Сума угоди', 'money')],
  contact: [field('position', 'Посада')],
};
export const usUsers = [
  { id: 1, name: 'Анна Коваль', email: 'anna@demo.test' },
  { id: 2, name: 'Богдан Мельник' },
];
