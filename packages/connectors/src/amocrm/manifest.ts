// amoCRM's screens, drawn by the web (kit/manifest.ts): connected through amoCRM's consent, with
// backups of the settings and the account's lists; where leads go (pipeline and status, contact,
// name, tags, responsible user, note); lead fields → the account's fields (a list field's values →
// its options); the account's users. The paths beside the generic ones are amoCRM's spec paths.

import { DETAIL_WORDS, defineManifest, GENERAL_CARD, LIST_WORDS, listOf, type MappingTarget } from '../kit/manifest';
import { logo } from './logo';
import { AMOCRM_CONTACT_POLICIES, ZAmoBackup, ZAmoField, ZAmoPipeline, ZAmoSettings, ZAmoUser } from './schema';
import type words from './words/uk.json';

const legacy = '/api/legacy/api/amocrm';

/** The account's lead or contact fields from the customFields loader ({ lead, contact }). */
const fieldsOf =
  (entity: 'lead' | 'contact') =>
  (answer: unknown): MappingTarget[] =>
    listOf(ZAmoField, (answer as Record<typeof entity, unknown> | null)?.[entity] ?? []).map((f) => ({
      key: String(f.id),
      name: f.name,
      ...(f.enums ? { enums: f.enums } : {}),
    }));

export const manifest = defineManifest<typeof words>({
  slug: 'amocrm',
  kind: 'destination',
  name: 'amoCRM',
  logo,
  page: {
    title: 'page.title',
    list: LIST_WORDS,
    connect: {
      methods: [
        {
          key: 'oauth',
          kind: 'oauth',
          start: [{ method: 'POST', path: `${legacy}/connect`, with: { id: 'integrationId', locale: 'locale' } }],
          url: 'url',
          // amoCRM returns to the server's callback, which comes back to the integration's page.
          returns: 'page',
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
              sections: [
                {
                  show: 'snapshots',
                  make: { method: 'POST', path: `${legacy}/backup`, with: { id: 'integrationId' } },
                  list: { method: 'GET', path: `${legacy}/backup/:id` },
                  title: 'backups.title',
                  hint: 'backups.hint',
                  create: 'backups.create',
                  created: 'backups.created',
                  empty: 'backups.empty',
                  download: 'backups.download',
                  file: 'amocrm-backup',
                  summary: {
                    word: 'backups.summary',
                    count: (snapshot) => {
                      const parsed = ZAmoBackup.safeParse(snapshot);
                      const data = parsed.success ? parsed.data.data : undefined;
                      return {
                        pipelines: data?.pipelines.length ?? 0,
                        users: data?.users.length ?? 0,
                        fields: (data?.fields.lead.length ?? 0) + (data?.fields.contact.length ?? 0),
                      };
                    },
                  },
                },
                { show: 'stage-watch' },
              ],
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
                  kind: 'pipeline-stage',
                  name: 'pipelineId',
                  label: 'settings.pipeline',
                  list: 'pipelines',
                  read: (answer) =>
                    listOf(ZAmoPipeline, answer).map((p) => ({
                      id: p.id,
                      name: p.name,
                      main: p.isMain,
                      stages: p.statuses.map((s) => ({ id: s.id, name: s.name })),
                    })),
                  placeholder: { main: 'settings.mainPipeline', otherwise: 'settings.defaultPipeline' },
                  unset: { main: 'settings.unsetMain', otherwise: 'settings.unsetDefault' },
                  stage: {
                    name: 'statusId',
                    label: 'settings.status',
                    placeholder: 'settings.firstStatus',
                    needsPipeline: 'settings.statusNeedsPipeline',
                  },
                },
                {
                  kind: 'radio',
                  name: 'contactPolicy',
                  spaced: true,
                  label: 'settings.contactPolicy',
                  options: AMOCRM_CONTACT_POLICIES.map((p) => ({ value: p, label: `contactPolicies.${p}` as const })),
                  default: 'attach',
                },
                {
                  kind: 'text',
                  name: 'leadName',
                  label: 'settings.leadName',
                  hint: 'settings.templateHint',
                  placeholder: 'settings.leadNamePlaceholder',
                  maxLength: 250,
                  schema: ZAmoSettings.shape.leadName,
                },
                { kind: 'tags', name: 'tags', label: 'settings.tags', hint: 'settings.tagsHint', max: 20 },
                {
                  kind: 'list-select',
                  name: 'responsibleUserId',
                  label: 'settings.responsible',
                  hint: 'settings.responsibleHint',
                  placeholder: 'settings.responsibleNone',
                  list: 'amoUsers',
                  read: (answer) => listOf(ZAmoUser, answer).map((u) => ({ value: u.id, label: u.name })),
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
              max: 40,
              groups: [
                { entity: 'lead', label: 'mapping.groups.lead', list: 'customFields', read: fieldsOf('lead') },
                { entity: 'contact', label: 'mapping.groups.contact', list: 'customFields', read: fieldsOf('contact') },
              ],
              stored: { key: 'fieldId', numeric: true, enums: true },
            },
          ],
        },
        {
          key: 'users',
          label: 'tabs.users',
          cards: [{ widget: 'users', list: 'amoUsers', read: (answer) => listOf(ZAmoUser, answer) }],
        },
      ],
    },
  },
});
