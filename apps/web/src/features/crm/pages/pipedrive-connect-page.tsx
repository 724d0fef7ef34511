import '../../../components/integrations/integrations.css';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { Button, Result, Spin } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { errorMessage, translateCode } from '../../../lib/errors';
import { localePath } from '../../../lib/locale';
import { useApp } from '../../../lib/use-app';
import { PD_NAME } from '../components/pipedrive-connect';
import { usePipedriveConnect } from '../queries';

/**
 * /admin/integrations/pipedrive/connect?code=…&state=…: Pipedrive's return (through the server's
 * callback). The code is exchanged once; then the integration's page. A return while signed out
 * was saved by the route guard (afterSignInRedirect) and comes back here after sign-in.
 */
export function PipedriveConnectPage() {
  const { t } = useTranslation('crm');
  const { message } = useApp();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const connect = usePipedriveConnect();
  const sent = useRef(false);
  const code = params.get('code');
  const state = params.get('state');
  const returned = params.get('error');

  useEffect(() => {
    if (sent.current || !code || !state) return;
    sent.current = true;
    connect
      .mutateAsync({ code, state })
      .then(({ integrationId }) => {
        void message.success(t('connection.done', { crm: PD_NAME }));
        navigate(localePath(`/admin/integrations/pipedrive/${encodeURIComponent(integrationId)}`), { replace: true });
      })
      .catch(() => undefined);
  }, [code, state, connect, message, navigate, t]);

  const back = (
    <Button
      type="primary"
      icon={<ArrowLeftOutlined aria-hidden />}
      onClick={() => navigate(localePath('/admin/integrations/pipedrive'))}
    >
      {t('page.back', { crm: PD_NAME })}
    </Button>
  );

  let failure: string | null = null;
  if (returned) failure = translateCode(returned, t('connectPage.denied'));
  else if (!code || !state) failure = t('connectPage.noCode');
  else if (connect.isError) failure = errorMessage(connect.error);

  return (
    <div className="lr-page">
      {failure ? (
        <Result status="warning" title={t('connectPage.failed', { crm: PD_NAME })} subTitle={failure} extra={back} />
      ) : (
        <Result icon={<Spin size="large" />} title={t('connectPage.working', { crm: PD_NAME })} />
      )}
    </div>
  );
}
