import { DownloadOutlined, SaveOutlined } from '@ant-design/icons';
import type { AmoBackup, Integration } from '@leadrelay/shared';
import { Button, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { PermissionGuard } from '../../../components/permission-guard';
import { errorMessage } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { useApp } from '../../../lib/use-app';
import { useAmoBackupMutation, useAmoBackups } from '../queries';
import { RowList } from './row-list';

function download(backup: AmoBackup) {
  const blob = new Blob([JSON.stringify(backup, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = `amocrm-backup-${backup.createdAt.slice(0, 19).replace(/[:T]/g, '-')}.json`;
  a.click();
  URL.revokeObjectURL(url);
}

/** Snapshots of the settings and the account's pipelines, users and fields, made on demand. */
export function AmoBackups({ integration }: { integration: Integration }) {
  const { t } = useTranslation('crm');
  const { message } = useApp();
  const backups = useAmoBackups(integration);
  const create = useAmoBackupMutation(integration._id);
  if (!integration.isConnected) return null;

  const onCreate = async () => {
    try {
      await create.mutateAsync();
      void message.success(t('backups.created'));
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };

  return (
    <div className="lr-crm-section">
      <div className="lr-crm-section-head">
        <Typography.Title level={5} className="lr-crm-section-title">
          {t('backups.title')}
        </Typography.Title>
        <PermissionGuard>
          <Button size="small" icon={<SaveOutlined aria-hidden />} onClick={onCreate} loading={create.isPending}>
            {t('backups.create')}
          </Button>
        </PermissionGuard>
      </div>
      <Typography.Paragraph type="secondary" className="lr-hint">
        {t('backups.hint')}
      </Typography.Paragraph>
      {backups.isError ? (
        <Typography.Text type="danger">{errorMessage(backups.error)}</Typography.Text>
      ) : (
        <RowList
          loading={backups.isPending}
          empty={t('backups.empty')}
          items={(backups.data?.data ?? []).map((b) => ({
            key: b._id,
            title: formatDateTime(b.createdAt),
            description: t('backups.summary', {
              pipelines: b.data.pipelines.length,
              users: b.data.users.length,
              fields: b.data.fields.lead.length + b.data.fields.contact.length,
            }),
            actions: (
              <Button
                size="small"
                type="text"
                icon={<DownloadOutlined aria-hidden />}
                aria-label={t('backups.download')}
                onClick={() => download(b)}
              />
            ),
          }))}
        />
      )}
    </div>
  );
}
