import { App } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { translateCode } from '../../../lib/errors';

/**
 * Facebook Login comes back through the server's callback with ?connected=<connectionId> or
 * ?error=<CODE>: a toast says how it went and the query is cleaned, so a reload does not repeat it.
 * Returns the connection just connected (to highlight it).
 */
export function useFbReturn(): string | null {
  const { t } = useTranslation('facebook');
  const { message } = App.useApp();
  const [params, setParams] = useSearchParams();
  const done = useRef(false);
  const justConnected = useRef<string | null>(null);
  const connected = params.get('connected');
  const error = params.get('error');
  if (connected && !justConnected.current) justConnected.current = connected;

  useEffect(() => {
    if (done.current || (!connected && !error)) return;
    done.current = true;
    if (error) void message.error(translateCode(error, t('connect.failed')));
    else void message.success(t('connect.done'));
    setParams(
      (p) => {
        p.delete('connected');
        p.delete('error');
        return p;
      },
      { replace: true },
    );
  }, [connected, error, message, setParams, t]);

  return justConnected.current;
}
