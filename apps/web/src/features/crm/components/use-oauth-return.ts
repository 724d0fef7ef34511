import { App } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { translateCode } from '../../../lib/errors';

/**
 * The server's OAuth callback comes back with ?connected=1 or ?error=<CODE>: a toast says how it
 * went and the query is cleaned, so a reload does not repeat it.
 */
export function useOAuthReturn(crmName: string) {
  const { t } = useTranslation('crm');
  const { message } = App.useApp();
  const [params, setParams] = useSearchParams();
  const done = useRef(false);
  const connected = params.get('connected');
  const error = params.get('error');

  useEffect(() => {
    if (done.current || (!connected && !error)) return;
    done.current = true;
    if (error) void message.error(translateCode(error, t('connection.failed', { crm: crmName })));
    else void message.success(t('connection.done', { crm: crmName }));
    setParams(
      (p) => {
        p.delete('connected');
        p.delete('error');
        return p;
      },
      { replace: true },
    );
  }, [connected, error, message, setParams, t, crmName]);
}
