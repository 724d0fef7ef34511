// /admin/widget: pick the Pipedrive integration and the SendPulse one whose chatbot it shows, connect
// SendPulse (its page's connection card, drawn from its manifest), and copy the panel link for
// Pipedrive (docs/sendpulse-widget.md).
import type { Integration } from '@leadrelay/shared';
import { Alert, Button, Card, Col, Empty, Form, Row, Select, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ConnectorCard } from '../../../components/connector-page/connector-pages';
import { useConnectorWords } from '../../../components/connector-page/words';
import { errorMessage } from '../../../lib/errors';
import { useConnectMutation, useIntegrationsQuery } from '../../../lib/integrations/queries';
import { localePath } from '../../../lib/locale';
import { WidgetUrlCard } from '../components/widget-url-card';
import '../widget.css';
import { useApp } from '../../../lib/use-app';

const all = (type: string) => ({ page: 1, limit: 100, type });
const sendpulseOf = (i: Integration | undefined) =>
  (i?.settings as { sendpulseIntegrationId?: string } | null)?.sendpulseIntegrationId;

function SetupForm({ pipedrive, sendpulse }: { pipedrive: Integration[]; sendpulse: Integration[] }) {
  const { t } = useTranslation('widget');
  const { message } = useApp();
  const [pipedriveId, setPipedriveId] = useState(pipedrive[0]?._id);
  const current = pipedrive.find((p) => p._id === pipedriveId);
  const saved = sendpulseOf(current);
  const [sendpulseId, setSendpulseId] = useState(saved ?? sendpulse[0]?._id);
  const firstSendpulse = sendpulse[0]?._id;
  // Another Pipedrive integration picked (or its saved choice changed): show what it has saved.
  useEffect(() => setSendpulseId(saved ?? firstSendpulse), [saved, firstSendpulse]);
  const connect = useConnectMutation(pipedriveId ?? '');
  const chosen = sendpulse.find((s) => s._id === sendpulseId);
  const isSaved = Boolean(saved && saved === sendpulseId);

  const save = () => {
    if (!current || !sendpulseId) return;
    connect.mutate(
      { settings: { ...(current.settings ?? {}), sendpulseIntegrationId: sendpulseId } },
      { onSuccess: () => void message.success(t('admin.saved')) },
    );
  };

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={12}>
        <Card title={t('admin.setupTitle')}>
          <Form layout="vertical">
            <Form.Item label={t('admin.pipedrive')}>
              <Select
                value={pipedriveId}
                onChange={setPipedriveId}
                placeholder={t('admin.choose')}
                options={pipedrive.map((p) => ({ value: p._id, label: p.name }))}
                aria-label={t('admin.pipedrive')}
              />
            </Form.Item>
            <Form.Item label={t('admin.sendpulse')}>
              <Select
                value={sendpulseId}
                onChange={setSendpulseId}
                placeholder={t('admin.choose')}
                options={sendpulse.map((s) => ({ value: s._id, label: s.name }))}
                aria-label={t('admin.sendpulse')}
              />
            </Form.Item>
            {connect.isError && (
              <Alert type="error" showIcon title={errorMessage(connect.error)} className="lr-widget-alert" />
            )}
            <Button type="primary" onClick={save} disabled={!sendpulseId || isSaved} loading={connect.isPending}>
              {isSaved ? t('admin.saved') : t('admin.saveChoice')}
            </Button>
          </Form>
        </Card>
        {chosen && (
          <div className="lr-widget-gap">
            <ConnectorCard key={chosen._id} integration={chosen} />
          </div>
        )}
      </Col>
      <Col xs={24} lg={12}>
        <WidgetUrlCard pipedriveId={pipedriveId} ready={isSaved} />
      </Col>
    </Row>
  );
}

export function WidgetAdminPage() {
  const { t } = useTranslation('widget');
  const pipedrive = useIntegrationsQuery(all('pipedrive'));
  const sendpulse = useIntegrationsQuery(all('sendpulse'));
  const failed = pipedrive.error ?? sendpulse.error;
  const sayPipedrive = useConnectorWords('pipedrive');
  const saySendpulse = useConnectorWords('sendpulse');

  // The type's own page with its connect dialog open: one click from here to connecting it.
  const missing = (text: string, type: 'pipedrive' | 'sendpulse') => (
    <Card>
      <Empty description={text}>
        <Link to={localePath(`/admin/integrations/${type}?connect=1`)}>
          <Button type="primary">
            {type === 'pipedrive' ? sayPipedrive('list.connect') : saySendpulse('list.connect')}
          </Button>
        </Link>
      </Empty>
    </Card>
  );

  return (
    <div className="lr-page">
      <div className="lr-page-head">
        <Typography.Title level={2} className="lr-page-title">
          {t('admin.title')}
        </Typography.Title>
      </div>
      <Typography.Paragraph type="secondary">{t('admin.intro')}</Typography.Paragraph>
      {failed ? (
        <Alert type="error" showIcon title={errorMessage(failed)} />
      ) : !pipedrive.data || !sendpulse.data ? (
        <Spin className="lr-spinner-inline" />
      ) : pipedrive.data.data.length === 0 ? (
        missing(t('admin.noPipedrive'), 'pipedrive')
      ) : sendpulse.data.data.length === 0 ? (
        missing(t('admin.noSendpulse'), 'sendpulse')
      ) : (
        <SetupForm pipedrive={pipedrive.data.data} sendpulse={sendpulse.data.data} />
      )}
    </div>
  );
}
