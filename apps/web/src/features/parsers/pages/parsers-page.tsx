import '../../../components/integrations/integrations.css';
import '../parsers.css';
import { PlusOutlined } from '@ant-design/icons';
import { DEFAULT_PAGE_SIZE, type Parser } from '@leadrelay/shared';
import { Button, Card, Empty, Input, List, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PermissionGuard } from '../../../components/permission-guard';
import { formatDateTime } from '../../../lib/format';
import { localePath } from '../../../lib/locale';
import { useIsMobile } from '../../../lib/use-is-mobile';
import { MailStatusTag } from '../components/mail-status';
import { useParsersQuery } from '../queries';

export const parserPath = (id: string) => localePath(`/admin/parsers/${encodeURIComponent(id)}`);

/** /admin/parsers: the account's parsers with status, address (with copy) and last mail. */
export function ParsersPage() {
  const { t } = useTranslation('parsers');
  const { t: tp } = useTranslation('pages');
  const isMobile = useIsMobile();
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const parsers = useParsersQuery({ page, limit: DEFAULT_PAGE_SIZE, ...(search ? { search } : {}) });
  const data = parsers.data?.data ?? [];

  const status = (p: Parser) => (
    <span className="lr-parser-status">
      <Tag color={p.active ? 'green' : 'default'}>{p.active ? t('list.active') : t('list.inactive')}</Tag>
      {p.imap?.enabled && <Tag>{t('list.mailbox')}</Tag>}
    </span>
  );
  const address = (p: Parser) => (
    <Typography.Text copyable={{ text: p.address }} className="lr-parser-address-small">
      {p.address}
    </Typography.Text>
  );
  const lastMail = (p: Parser) =>
    p.lastMail ? (
      <span className="lr-parser-status">
        <Typography.Text type="secondary">{formatDateTime(p.lastMail.at)}</Typography.Text>
        <MailStatusTag status={p.lastMail.status} />
      </span>
    ) : (
      <Typography.Text type="secondary">{t('list.never')}</Typography.Text>
    );
  const empty = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('list.empty')} />;

  return (
    <div className="lr-page">
      <div className="lr-page-head">
        <div className="lr-min0">
          <Typography.Title level={2} className="lr-page-title">
            {tp('titles.parsers')}
          </Typography.Title>
          <Typography.Paragraph type="secondary">{t('list.subtitle')}</Typography.Paragraph>
        </div>
        <PermissionGuard>
          <Link to={localePath('/admin/parsers/create')}>
            <Button type="primary" icon={<PlusOutlined aria-hidden />}>
              {t('list.create')}
            </Button>
          </Link>
        </PermissionGuard>
      </div>
      <Card className="lr-parser-list">
        <Input.Search
          allowClear
          placeholder={t('list.search')}
          aria-label={t('list.search')}
          onSearch={(value) => {
            setSearch(value.trim());
            setPage(1);
          }}
          className="lr-parser-search"
        />
        {isMobile ? (
          <List
            loading={parsers.isPending}
            dataSource={data}
            locale={{ emptyText: empty }}
            pagination={
              (parsers.data?.total ?? 0) > DEFAULT_PAGE_SIZE
                ? { current: page, total: parsers.data?.total, onChange: setPage, size: 'small' }
                : false
            }
            renderItem={(p) => (
              <List.Item key={p._id} data-testid="parser-row">
                <div className="lr-grow lr-min0">
                  <Link to={parserPath(p._id)} className="lr-parser-name">
                    {p.name}
                  </Link>
                  <div>{status(p)}</div>
                  <div>{address(p)}</div>
                  <div>{lastMail(p)}</div>
                </div>
              </List.Item>
            )}
          />
        ) : (
          <Table<Parser>
            rowKey="_id"
            loading={parsers.isPending}
            dataSource={data}
            locale={{ emptyText: empty }}
            pagination={{
              current: page,
              pageSize: DEFAULT_PAGE_SIZE,
              total: parsers.data?.total ?? 0,
              onChange: setPage,
              hideOnSinglePage: true,
            }}
            onRow={() => ({ 'data-testid': 'parser-row' }) as React.HTMLAttributes<HTMLTableRowElement>}
            columns={[
              { key: 'name', title: t('list.name'), render: (_, p) => <Link to={parserPath(p._id)}>{p.name}</Link> },
              { key: 'status', title: t('list.status'), width: 200, render: (_, p) => status(p) },
              { key: 'address', title: t('list.address'), render: (_, p) => address(p) },
              { key: 'last', title: t('list.lastMail'), width: 280, render: (_, p) => lastMail(p) },
            ]}
          />
        )}
      </Card>
    </div>
  );
}
