// Mounted by the account layouts: keeps the tab's real-time connection up while signed in and
// shows a notice when an integration breaks.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useToken } from './auth';
import { translateCode } from './errors';
import { localePath } from './locale';
import { type BrokenIntegration, ensureRealtime, type SocketLike } from './realtime';
import { useApp } from './use-app';

export function integrationPath(info: Pick<BrokenIntegration, 'id' | 'type'>): string {
  return info.type
    ? `/admin/integrations/${encodeURIComponent(info.type)}/${encodeURIComponent(info.id)}`
    : '/admin/integrations';
}

export function useRealtimeConnection(): void {
  const qc = useQueryClient();
  const token = useToken();
  const { notification } = useApp();
  const { t } = useTranslation('dashboard');

  useEffect(() => {
    if (!token) return;
    let live = true;
    // socket.io's client (13 KB gzipped) arrives after the page shows (issue 17 part 8).
    const connect = import('socket.io-client').then(({ io }) => {
      if (!live) return;
      const client = ensureRealtime({ queryClient: qc, io: (options) => io(options) as unknown as SocketLike });
      client.setOnBroken((info) => {
        notification.error({
          key: `integration-broken-${info.id}`,
          title: t('realtime.broken.title', { name: info.name ?? t('realtime.broken.unnamed') }),
          description: (
            <>
              <div>{info.reason ? translateCode(info.reason, info.reason) : t('realtime.broken.noReason')}</div>
              <Link
                to={localePath(integrationPath(info))}
                onClick={() => notification.destroy(`integration-broken-${info.id}`)}
              >
                {t('realtime.broken.open')}
              </Link>
            </>
          ),
          placement: 'topRight',
          duration: 0,
        });
      });
    });
    connect.catch((error: unknown) => console.warn('realtime', error));
    return () => {
      live = false;
    };
  }, [token, qc, notification, t]);
}
