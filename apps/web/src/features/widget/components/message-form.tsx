import { SendOutlined } from '@ant-design/icons';
import { WIDGET_MESSAGE_MAX } from '@leadrelay/shared';
import { Alert, Button, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/errors';
import { useApp } from '../../../lib/use-app';
import { useSendMessageMutation } from '../queries';

/** The message box: sends to the chosen contact; the text is kept when sending fails. */
export function MessageForm({
  token,
  personId,
  contactId,
  contactName,
}: {
  token: string;
  personId: number;
  contactId: string;
  contactName: string;
}) {
  const { t } = useTranslation('widget');
  const { message } = useApp();
  const [text, setText] = useState('');
  const send = useSendMessageMutation();
  const canSend = text.trim().length > 0 && text.length <= WIDGET_MESSAGE_MAX && !send.isPending;

  const submit = () => {
    if (!canSend) return;
    send.mutate(
      { token, personId, contactId, text },
      {
        onSuccess: () => {
          setText('');
          void message.success(t('panel.sent'));
        },
      },
    );
  };

  return (
    <div className="lr-widget-message">
      <Input.TextArea
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          if (send.isError) send.reset();
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) submit();
        }}
        placeholder={t('panel.messagePlaceholder', { name: contactName })}
        aria-label={t('panel.message')}
        autoSize={{ minRows: 3, maxRows: 8 }}
        maxLength={WIDGET_MESSAGE_MAX}
        showCount
      />
      {send.isError && <Alert type="error" showIcon title={errorMessage(send.error)} className="lr-widget-alert" />}
      <Button
        type="primary"
        icon={<SendOutlined aria-hidden />}
        onClick={submit}
        disabled={!canSend}
        loading={send.isPending}
      >
        {t('panel.send')}
      </Button>
    </div>
  );
}
