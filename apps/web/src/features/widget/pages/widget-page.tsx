// The panel Pipedrive shows on a person (spec 2 "Widget"): the person, their SendPulse chatbot
// contacts with a link to each conversation, and a message box. Authorised by the token in its URL.
import { MailOutlined, PhoneOutlined, ReloadOutlined, UserOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Empty, Result, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { errorMessage } from '../../../lib/errors';
import { HttpError } from '../../../lib/http';
import { type ChannelKey, ContactList } from '../components/contact-list';
import { MessageForm } from '../components/message-form';
import { useWidgetDataQuery } from '../queries';
import '../widget.css';

/** The person id Pipedrive passes to a custom panel (selectedIds, first of them), or ours (personId, id). */
export function personIdOf(params: URLSearchParams): number | undefined {
  for (const name of ['selectedIds', 'personId', 'id']) {
    const first = params.get(name)?.split(',')[0]?.trim();
    if (first && /^\d{1,15}$/.test(first) && Number(first) > 0) return Number(first);
  }
  return undefined;
}

export function WidgetPage() {
  const { t } = useTranslation('widget');
  const [params] = useSearchParams();
  // Ours comes first in the URL; anything Pipedrive appends under the same name comes after it.
  const token = params.getAll('token')[0] ?? '';
  const personId = personIdOf(params);
  const data = useWidgetDataQuery(token, personId);
  const [chosen, setChosen] = useState<string>();

  if (!token) return <Result status="warning" title={t('panel.badLinkTitle')} subTitle={t('panel.badLinkText')} />;
  if (personId === undefined) {
    return <Result status="info" title={t('panel.noPersonTitle')} subTitle={t('panel.noPersonText')} />;
  }
  if (data.isPending) return <Skeleton active avatar paragraph={{ rows: 4 }} />;
  if (data.isError) {
    const code = data.error instanceof HttpError ? data.error.code : '';
    if (code === 'WIDGET_NOT_FOUND' || code === 'VALIDATION_ERROR') {
      return <Result status="warning" title={t('panel.badLinkTitle')} subTitle={t('panel.badLinkText')} />;
    }
    return (
      <Alert
        type="error"
        showIcon
        title={code === 'NOT_FOUND' ? t('panel.personGone') : errorMessage(data.error)}
        action={
          <Button size="small" icon={<ReloadOutlined aria-hidden />} onClick={() => void data.refetch()}>
            {t('panel.retry')}
          </Button>
        }
      />
    );
  }

  const { person, contacts, channel } = data.data;
  const current = contacts.find((c) => c.id === chosen) ?? contacts[0];
  return (
    <div className="lr-widget-panel">
      <Card size="small" className="lr-widget-person">
        <Typography.Text type="secondary" className="lr-widget-small">
          {t('panel.person')}
        </Typography.Text>
        <Typography.Title level={5} className="lr-widget-name">
          <UserOutlined aria-hidden /> {person.name}
        </Typography.Title>
        <div className="lr-widget-facts">
          <span>
            <PhoneOutlined aria-hidden /> {person.phones.join(', ') || t('panel.noPhones')}
          </span>
          <span>
            <MailOutlined aria-hidden /> {person.emails.join(', ') || t('panel.noEmails')}
          </span>
        </div>
      </Card>

      <Typography.Text strong className="lr-widget-section">
        {t('panel.contacts')}
      </Typography.Text>
      {contacts.length === 0 || !current ? (
        <Card size="small">
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={
              <>
                <Typography.Text strong>{t('panel.noContactTitle')}</Typography.Text>
                <br />
                <Typography.Text type="secondary">
                  {t('panel.noContactText', {
                    channel: t(`panel.channel.${channel as ChannelKey}`, { defaultValue: channel }),
                  })}
                </Typography.Text>
              </>
            }
          />
        </Card>
      ) : (
        <>
          <ContactList contacts={contacts} selected={current.id} onSelect={setChosen} />
          <MessageForm token={token} personId={person.id} contactId={current.id} contactName={current.name} />
        </>
      )}
    </div>
  );
}
