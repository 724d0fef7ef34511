import type { ParserMail } from '@leadrelay/shared';
import { Button, Card, Descriptions, Empty, List, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ReasonDetails } from '../../../components/integrations/reason-details';
import { LeadFieldName } from '../../../components/lead-field-name';
import { errorMessage } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { useApp } from '../../../lib/use-app';
import { useIsMobile } from '../../../lib/use-is-mobile';
import { useParserMailsQuery, useRetryParserMailMutation } from '../queries';
import { MailStatusTag, useReasonText } from './mail-status';

/**
 * The last mails and what became of each (lead, filtered, not taken, refused with the reason), live.
 * A failed mail shows its reason, the technical details folded, and "Try again".
 */
export function MailLog({ parserId, onUseAsSample }: { parserId: string; onUseAsSample?: (mail: ParserMail) => void }) {
  const { t } = useTranslation('parsers');
  const reasonText = useReasonText();
  const isMobile = useIsMobile();
  const [page, setPage] = useState(1);
  const mails = useParserMailsQuery(parserId, { page, limit: 10 });
  const retry = useRetryParserMailMutation(parserId);
  const { message } = useApp();
  const data = mails.data?.data ?? [];

  const onRetry = async (m: ParserMail) => {
    try {
      const after = await retry.mutateAsync(m._id);
      if (after.status === 'failed') void message.error(t('mails.retryFailed'));
      else void message.success(t('mails.retried', { status: t(`status.${after.status}`) }));
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };
  const outcome = (m: ParserMail) => (
    <div className="lr-parser-outcome">
      <MailStatusTag status={m.status} />
      {m.reason && (
        <Typography.Text type={m.status === 'failed' ? 'danger' : 'secondary'}>{reasonText(m.reason)}</Typography.Text>
      )}
      {m.status === 'failed' && (
        <>
          {m.detail && <ReasonDetails reason={{ code: 'MAIL_PROCESSING_FAILED', params: { detail: m.detail } }} />}
          <Button
            size="small"
            onClick={() => void onRetry(m)}
            loading={retry.isPending && retry.variables === m._id}
            data-testid="parser-mail-retry"
          >
            {t('mails.retry')}
          </Button>
        </>
      )}
    </div>
  );
  const fields = (m: ParserMail) =>
    m.fields && Object.keys(m.fields).length ? (
      <Descriptions size="small" column={1} className="lr-parser-mail-fields">
        {Object.entries(m.fields).map(([k, v]) => (
          <Descriptions.Item key={k} label={<LeadFieldName field={k} showKey={false} />}>
            {v}
          </Descriptions.Item>
        ))}
      </Descriptions>
    ) : null;
  const subject = (m: ParserMail) => (
    <>
      <div className="lr-parser-subject">{m.subject || t('mails.noSubject')}</div>
      <Typography.Text type="secondary" className="lr-parser-from">
        {m.from} · {t(`mails.via.${m.via}`)}
      </Typography.Text>
      {m.attachments.length > 0 && (
        <div>
          <Typography.Text type="secondary">
            {t('mails.attachments', { names: m.attachments.map((a) => a.filename || a.contentType).join(', ') })}
          </Typography.Text>
        </div>
      )}
    </>
  );
  const sampleButton = (m: ParserMail) =>
    onUseAsSample && m.size > 0 && m.status !== 'rejected' ? (
      <Button size="small" type="link" onClick={() => onUseAsSample(m)}>
        {t('mails.preview')}
      </Button>
    ) : null;

  return (
    <Card title={t('mails.title')}>
      {isMobile ? (
        <List
          loading={mails.isPending}
          dataSource={data}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('mails.empty')} /> }}
          pagination={
            (mails.data?.total ?? 0) > 10
              ? { current: page, total: mails.data?.total, onChange: setPage, size: 'small' }
              : false
          }
          renderItem={(m) => (
            <List.Item key={m._id} data-testid="parser-mail">
              <div className="lr-grow">
                <Typography.Text type="secondary">{formatDateTime(m.receivedAt)}</Typography.Text>
                {subject(m)}
                {outcome(m)}
                {fields(m)}
                {sampleButton(m)}
              </div>
            </List.Item>
          )}
        />
      ) : (
        <Table<ParserMail>
          rowKey="_id"
          size="small"
          tableLayout="fixed"
          loading={mails.isPending}
          dataSource={data}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('mails.empty')} /> }}
          pagination={{
            current: page,
            total: mails.data?.total ?? 0,
            pageSize: 10,
            onChange: setPage,
            hideOnSinglePage: true,
          }}
          onRow={() => ({ 'data-testid': 'parser-mail' }) as React.HTMLAttributes<HTMLTableRowElement>}
          columns={[
            { key: 'at', title: t('mails.receivedAt'), width: 150, render: (_, m) => formatDateTime(m.receivedAt) },
            { key: 'subject', title: t('mails.subject'), width: '30%', render: (_, m) => subject(m) },
            { key: 'status', title: t('mails.status'), width: 200, render: (_, m) => outcome(m) },
            { key: 'fields', title: t('mails.fields'), render: (_, m) => fields(m) },
            { key: 'use', width: 110, render: (_, m) => sampleButton(m) },
          ]}
        />
      )}
    </Card>
  );
}
