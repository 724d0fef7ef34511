// amoCRM's own paths (spec 7 "amoCRM"), aliases of the generic routes the server mounts for every
// connector, and its backups: the `backup` action's answer is kept as a record of kind `backups`,
// the newest 20 per integration (docs/adr/013-connector-declarations.md).

import { z } from 'zod';
import type { ConnectorAction, ConnectorAlias, ConnectorRecordKind } from '../kit/types';
import type { AmoAuth, AmoContext } from './client';
import {
  type AmoFields,
  type AmoPipeline,
  type AmoSettings,
  type AmoUser,
  ZAmoBackup,
  ZAmoBackupBody,
  ZAmoBackupList,
  ZAmoFields,
  ZAmoParserTargets,
  ZAmoPipeline,
  ZAmoUser,
} from './schema';

const legacy = '/api/legacy/api/amocrm';

export const amoAliases: readonly ConnectorAlias[] = [
  // {integrationId, locale?} → {url}: the consent page; the state is bound to this browser for /api/amocrm/callback.
  { method: 'POST', path: `${legacy}/connect`, oauth: 'start' },
  { method: 'GET', path: `${legacy}/users/:id`, list: 'amoUsers', response: z.array(ZAmoUser) },
  { method: 'GET', path: `${legacy}/pipelines/:id`, list: 'pipelines', response: z.array(ZAmoPipeline) },
  { method: 'GET', path: `${legacy}/fields/:id`, list: 'customFields', response: ZAmoFields },
  { method: 'GET', path: `${legacy}/parser/:id`, list: 'parser', response: ZAmoParserTargets },
  { method: 'POST', path: `${legacy}/backup`, action: 'backup', body: ZAmoBackupBody },
  { method: 'GET', path: `${legacy}/backup/:id`, records: 'backups', response: ZAmoBackupList },
];

/** Backups kept per integration. */
export const AMOCRM_BACKUPS_KEPT = 20;

/** A snapshot of the integration's settings (as saved) and the account's pipelines, users and fields. */
export const backupAction = (read: {
  pipelines: (ctx: AmoContext) => Promise<AmoPipeline[]>;
  users: (ctx: AmoContext) => Promise<AmoUser[]>;
  fields: (ctx: AmoContext) => Promise<AmoFields>;
}): ConnectorAction<AmoAuth, AmoSettings> => ({
  keep: 'backups',
  async run(ctx, _body, integration) {
    // One after another: amoCRM allows 7 requests per second, and a refresh in the first serves the rest.
    const pipelines = await read.pipelines(ctx);
    const users = await read.users(ctx);
    const fields = await read.fields(ctx);
    return { settings: integration.settings, pipelines, users, fields };
  },
});

/** The kept snapshots, listed as the spec has them: {_id, integrationId, createdAt, data}. */
export const backupRecords: ConnectorRecordKind<AmoAuth, AmoSettings> = {
  statuses: ['kept'],
  item: ZAmoBackup,
  keep: AMOCRM_BACKUPS_KEPT,
  view: (record) => ({
    _id: record.id,
    integrationId: record.integrationId,
    createdAt: record.createdAt.toISOString(),
    data: record.data,
  }),
};
