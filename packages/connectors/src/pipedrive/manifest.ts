// Pipedrive's screens, drawn by the web (kit/manifest.ts): connected through Pipedrive's consent in
// a new tab (or with an API token); what leads become (a lead, or a deal in a pipeline and stage,
// an organization, a follow-up activity, the owner, a note); lead fields → the company's person,
// organization and deal fields; its users; the webhooks registered in the company. The paths beside
// the generic ones are Pipedrive's spec paths (/pipedrive/* live at the auth host).
import { ZLoaderUsers } from '@leadrelay/shared';
import { DETAIL_WORDS, defineManifest, GENERAL_CARD, LIST_WORDS, listOf, type MappingTarget } from '../kit/manifest';
import { logo } from './logo';
import {
  PIPEDRIVE_TARGETS,
  ZPipedriveActivityType,
  ZPipedriveApiToken,
  ZPipedriveField,
  ZPipedrivePipeline,
  ZPipedriveWebhookBody,
} from './schema';
import type words from './words/uk.json';

const connect = '/api/legacy/api/pipedrive/connect';
const webhooks = '/api/pipedrive/webhooks/:id';

/** A field list's fields (only those with an id: spec section 3). */
const fields = (answer: unknown): MappingTarget[] =>
  listOf(ZPipedriveField, answer).map((f) => ({ key: f.key, name: f.name }));

/** Users (ids as strings from the generic loader) as the settings keep them: positive whole numbers. */
const users = (answer: unknown) =>
  listOf(ZLoaderUsers.element, answer)
    .map((u) => ({ id: Number(u.id), name: u.name }))
    .filter((u) => Number.isInteger(u.id) && u.id > 0);

const ACTIONS = [
  { value: '*', label: 'webhooks.actions.any' },
  { value: 'create', label: 'webhooks.actions.create' },
  { value: 'change', label: 'webhooks.actions.change' },
  { value: 'delete', label: 'webhooks.actions.delete' },
] as const;
const OBJECTS = ['deal', 'lead', 'person', 'organization', 'activity', 'note'] as const;

export const manifest = defineManifest<typeof words>({
  slug: 'pipedrive',
  kind: 'destination',
  name: 'Pipedrive',
  logo,
  page: {
    title: 'page.title',
    list: LIST_WORDS,
    connect: {
      methods: [
        {
          key: 'oauth',
          kind: 'oauth',
          label: 'connect.oauth',
          // A state bound to the integration, then the consent page's address.
          start: [
            { method: 'POST', path: '/pipedrive/state', with: { id: 'integrationId', locale: 'locale' } },
            { method: 'POST', path: '/pipedrive/start' },
          ],
          url: 'authUrl',
          tab: true,
          returns: { exchange: { method: 'POST', path: connect } },
        },
        {
          key: 'token',
          kind: 'credentials',
          label: 'connect.token',
          call: { method: 'POST', path: connect, with: { id: 'integrationId' } },
          items: [
            {
              kind: 'secret',
              name: 'apiToken',
              label: 'token.label',
              hint: 'token.hint',
              required: true,
              schema: ZPipedriveApiToken,
            },
          ],
          folded: { title: 'token.title', hint: 'token.hint', save: 'token.save' },
        },
      ],
    },
    detail: {
      ...DETAIL_WORDS,
      tabs: [
        {
          key: 'connection',
          label: 'tabs.connection',
          cards: [
            GENERAL_CARD,
            {
              widget: 'connection',
              span: { xs: 24, lg: 14 },
              sections: [{ show: 'method', method: 'token' }, { show: 'stage-watch' }],
            },
          ],
        },
        {
          key: 'pipeline',
          label: 'tabs.pipeline',
          cards: [
            {
              widget: 'form',
              title: 'settings.title',
              save: 'settings.save',
              saved: 'settings.saved',
              checkFailed: 'settings.checkFailed',
              omitEmpty: true,
              items: [
                {
                  kind: 'radio',
                  name: 'target',
                  spaced: true,
                  label: 'settings.target',
                  options: PIPEDRIVE_TARGETS.map((v) => ({ value: v, label: `targets.${v}` as const })),
                  default: 'lead',
                },
                {
                  kind: 'pipeline-stage',
                  name: 'pipelineId',
                  label: 'settings.pipeline',
                  list: 'stages',
                  read: (answer) =>
                    listOf(ZPipedrivePipeline, answer).map((p) => ({
                      id: p.id,
                      name: p.name,
                      stages: [...p.stages].sort((a, b) => a.order_nr - b.order_nr),
                    })),
                  placeholder: { otherwise: 'settings.defaultPipeline' },
                  unset: { otherwise: 'settings.unsetDefault' },
                  stage: {
                    name: 'stageId',
                    label: 'settings.stage',
                    placeholder: 'settings.firstStage',
                    needsPipeline: 'settings.statusNeedsPipeline',
                  },
                  // Pipeline and stage are a deal's.
                  visibleWhen: { field: 'target', is: 'deal' },
                },
                {
                  kind: 'text',
                  name: 'title',
                  label: 'settings.dealTitle',
                  hint: 'settings.templateHint',
                  placeholder: 'settings.leadNamePlaceholder',
                  maxLength: 250,
                },
                {
                  kind: 'switch',
                  name: 'organization',
                  label: 'settings.organization',
                  hint: 'settings.organizationHint',
                  default: false,
                },
                {
                  kind: 'group',
                  name: 'activity',
                  label: 'settings.activity',
                  hint: 'settings.activityHint',
                  items: [
                    {
                      kind: 'list-select',
                      name: 'type',
                      label: 'settings.activityType',
                      list: 'activityTypes',
                      read: (answer) =>
                        listOf(ZPipedriveActivityType, answer).map((a) => ({ value: a.key, label: a.name })),
                      required: true,
                      messages: { required: 'settings.activityTypeRequired' },
                    },
                    { kind: 'text', name: 'subject', label: 'settings.activitySubject', maxLength: 250 },
                    {
                      kind: 'number',
                      name: 'dueInMinutes',
                      label: 'settings.dueInMinutes',
                      min: 0,
                      max: 60 * 24 * 30,
                      integer: true,
                      default: 60,
                      narrow: true,
                    },
                  ],
                },
                {
                  kind: 'list-select',
                  name: 'ownerId',
                  label: 'settings.owner',
                  hint: 'settings.responsibleHint',
                  placeholder: 'settings.responsibleNone',
                  list: 'users',
                  read: (answer) => users(answer).map((u) => ({ value: u.id, label: u.name })),
                  clearable: true,
                  search: true,
                },
                { kind: 'switch', name: 'note', label: 'settings.note', hint: 'settings.noteHint', default: true },
              ],
            },
          ],
        },
        {
          key: 'fields',
          label: 'tabs.fields',
          cards: [
            {
              widget: 'mapping',
              hint: 'mapping.hint',
              max: 50,
              groups: [
                { entity: 'person', label: 'mapping.groups.person', list: 'personFields', read: fields },
                {
                  entity: 'organization',
                  label: 'mapping.groups.organization',
                  list: 'organizationFields',
                  read: fields,
                },
                { entity: 'deal', label: 'mapping.groups.deal', list: 'dealFields', read: fields },
              ],
              stored: { key: 'key' },
            },
          ],
        },
        { key: 'users', label: 'tabs.users', cards: [{ widget: 'users', list: 'users', read: users }] },
        {
          key: 'webhooks',
          label: 'tabs.webhooks',
          cards: [
            {
              widget: 'webhooks',
              list: { method: 'GET', path: webhooks },
              create: { method: 'POST', path: webhooks },
              remove: { method: 'DELETE', path: webhooks },
              url: { schema: ZPipedriveWebhookBody.shape.url, example: 'https://example.com/pipedrive' },
              actions: ACTIONS,
              objects: [
                { value: '*', label: 'webhooks.objects.any' },
                ...OBJECTS.map((o) => ({ value: o, label: `webhooks.objects.${o}` as const })),
              ],
              initial: { action: '*', object: 'deal' },
            },
          ],
        },
      ],
    },
  },
});
