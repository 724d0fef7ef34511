import '../integrations/integrations.css';
import { ArrowLeftOutlined } from '@ant-design/icons';
import type { OAuthMethod } from '@leadrelay/connectors/manifest';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Result, Spin } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { answerField, runCall } from '../../lib/connectors/calls';
import { errorMessage, translateCode } from '../../lib/errors';
import { integrationKeys } from '../../lib/integrations/queries';
import { localePath } from '../../lib/locale';
import { useApp } from '../../lib/use-app';
import { useDocumentTitle } from '../../lib/use-document-title';
import type { PageInfo } from './page-context';

type Exchange = Exclude<OAuthMethod<string>['returns'], 'page'>;

/** The OAuth way whose provider comes back to /admin/integrations/<slug>/connect, if the manifest has one. */
export function returnMethodOf(
  page: PageInfo['manifest']['page'],
): (OAuthMethod<string> & { returns: Exchange }) | null {
  const method = page.connect?.methods.find((m) => m.kind === 'oauth' && m.returns !== 'page');
  return method?.kind === 'oauth' && method.returns !== 'page' ? { ...method, returns: method.returns } : null;
}

/**
 * /admin/integrations/<slug>/connect?code=…&state=…: the provider's return (through the server's
 * callback). The code is exchanged once; then the integration's page. A return while signed out
 * was saved by the route guard (afterSignInRedirect) and comes back here after sign-in.
 */
export function OAuthReturnPage({ page, exchange }: { page: Pick<PageInfo, 'manifest' | 'say'>; exchange: Exchange }) {
  const { t } = useTranslation('crm');
  const { message } = useApp();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [params] = useSearchParams();
  const { manifest, say } = page;
  const crm = manifest.name;
  const list = `/admin/integrations/${encodeURIComponent(manifest.slug)}`;
  const connect = useMutation({
    mutationFn: (body: { code: string; state: string }) => runCall(exchange.exchange, '', body),
    onSuccess: () => qc.invalidateQueries({ queryKey: integrationKeys.all }),
  });
  const sent = useRef(false);
  const code = params.get('code');
  const state = params.get('state');
  const returned = params.get('error');
  useDocumentTitle(say(manifest.page.list.connect));

  useEffect(() => {
    if (sent.current || !code || !state) return;
    sent.current = true;
    connect
      .mutateAsync({ code, state })
      .then((answer) => {
        void message.success(t('connection.done', { crm }));
        const id = answerField(answer, 'integrationId') ?? '';
        navigate(localePath(`${list}/${encodeURIComponent(id)}`), { replace: true });
      })
      .catch(() => undefined);
  }, [code, state, connect, message, navigate, t, crm, list]);

  const back = (
    <Button type="primary" icon={<ArrowLeftOutlined aria-hidden />} onClick={() => navigate(localePath(list))}>
      {say(manifest.page.detail.back)}
    </Button>
  );

  let failure: string | null = null;
  if (returned) failure = translateCode(returned, t('connectPage.denied', { crm }));
  else if (!code || !state) failure = t('connectPage.noCode', { crm });
  else if (connect.isError) failure = errorMessage(connect.error);

  return (
    <div className="lr-page">
      {failure ? (
        <Result status="warning" title={t('connectPage.failed', { crm })} subTitle={failure} extra={back} />
      ) : (
        <Result icon={<Spin size="large" />} title={t('connectPage.working', { crm })} />
      )}
    </div>
  );
}
