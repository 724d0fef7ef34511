import { PlusOutlined, TeamOutlined } from '@ant-design/icons';
import { Button, Card, Empty, Flex, Pagination, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/errors';
import { usePageSize } from '../../../lib/query-behaviours';
import { useApp } from '../../../lib/use-app';
import { useIsMobile } from '../../../lib/use-is-mobile';
import { CollectionCard } from '../components/collection-card';
import { NameModal } from '../components/name-modal';
import { useCollectionsListQuery, useCreateCollectionMutation } from '../queries';

export function CollectionsPage() {
  const { t } = useTranslation('collections');
  const { message } = useApp();
  const mobile = useIsMobile();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = usePageSize();
  const [creating, setCreating] = useState(false);
  const list = useCollectionsListQuery({ page, limit: pageSize });
  const create = useCreateCollectionMutation();
  const collections = list.data?.data ?? [];
  const total = list.data?.total ?? 0;

  // Deleting the last collection of the last page: show the page before it.
  useEffect(() => {
    if (page > 1 && list.data && list.data.data.length === 0 && total > 0) {
      setPage(Math.max(1, Math.ceil(total / pageSize)));
    }
  }, [page, list.data, total, pageSize]);

  const newButton = (
    <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => setCreating(true)}>
      {t('create')}
    </Button>
  );

  return (
    <div className="lr-page">
      <div className="lr-page-head">
        <Typography.Title level={2} className="lr-page-title">
          {t('title')}
        </Typography.Title>
        {total > 0 && newButton}
      </div>
      <Typography.Paragraph type="secondary">{t('intro')}</Typography.Paragraph>

      {list.isPending ? (
        <Spin className="lr-spinner-inline" />
      ) : list.isError ? (
        <Card>
          <Empty description={errorMessage(list.error)}>
            <Button onClick={() => void list.refetch()}>{t('retry')}</Button>
          </Empty>
        </Card>
      ) : total === 0 ? (
        <Card>
          <Empty
            className="lr-dashboard-empty"
            image={<TeamOutlined aria-hidden className="lr-empty-icon" />}
            description={
              <>
                <Typography.Title level={4}>{t('empty.title')}</Typography.Title>
                <Typography.Paragraph type="secondary">{t('empty.text')}</Typography.Paragraph>
              </>
            }
          >
            {newButton}
          </Empty>
        </Card>
      ) : (
        <Flex vertical gap={16}>
          {collections.map((c) => (
            <CollectionCard key={c._id} collection={c} mobile={mobile} />
          ))}
          {total > 10 && (
            <Pagination
              className="lr-collections-pagination"
              current={page}
              pageSize={pageSize}
              total={total}
              size={mobile ? 'small' : undefined}
              showSizeChanger={!mobile}
              pageSizeOptions={[10, 20, 50]}
              onChange={(p, size) => {
                if (size !== pageSize) {
                  setPageSize(size);
                  setPage(1);
                } else setPage(p);
              }}
            />
          )}
        </Flex>
      )}

      <NameModal
        open={creating}
        title={t('createTitle')}
        okText={t('createOk')}
        onClose={() => setCreating(false)}
        onSubmit={async (name) => {
          await create.mutateAsync(name);
          setPage(1);
          void message.success(t('messages.created'));
        }}
      />
    </div>
  );
}
