import { PlusOutlined } from '@ant-design/icons';
import type { Post } from '@leadrelay/shared';
import { Button, Empty, Pagination, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../../lib/errors';
import { localePath } from '../../../lib/locale';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { PostAnalyticsCard } from '../components/post-analytics';
import { PostCard } from '../components/post-card';
import { PostFormModal } from '../components/post-form-modal';
import { usePostsQuery } from '../queries';
import { useIsStaff } from '../use-is-staff';
import '../news.css';

const PAGE_SIZE = 12;

/** /news: the published posts for everyone; staff also publish here and see the views. */
export function NewsPage() {
  const { t, i18n } = useTranslation('news');
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const posts = usePostsQuery(page, PAGE_SIZE);
  const staff = useIsStaff();
  const [editing, setEditing] = useState<Post | null>();
  useDocumentTitle(t('title'));

  return (
    <div className="lr-news">
      <div className="lr-news-head">
        <Typography.Title level={1}>{t('title')}</Typography.Title>
        {staff && (
          <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => setEditing(null)}>
            {t('create')}
          </Button>
        )}
      </div>
      {posts.isError && (
        <Typography.Paragraph type="danger" role="alert">
          {errorMessage(posts.error)}
        </Typography.Paragraph>
      )}
      {posts.isPending ? (
        <Skeleton active />
      ) : posts.data && posts.data.total === 0 ? (
        <Empty description={t('empty')} />
      ) : (
        <div className="lr-news-grid">
          {posts.data?.data.map((post) => (
            <PostCard key={post._id} post={post} locale={i18n.language} />
          ))}
        </div>
      )}
      {(posts.data?.total ?? 0) > PAGE_SIZE && (
        <Pagination
          style={{ marginTop: 24, textAlign: 'center' }}
          current={page}
          pageSize={PAGE_SIZE}
          total={posts.data?.total}
          onChange={setPage}
          showSizeChanger={false}
        />
      )}
      {staff && (
        <div style={{ marginTop: 32 }}>
          <PostAnalyticsCard />
        </div>
      )}
      <PostFormModal
        post={editing}
        onClose={(saved) => {
          setEditing(undefined);
          if (saved) void navigate(localePath(`/news/${saved._id}`));
        }}
      />
    </div>
  );
}
