import { ArrowLeftOutlined, DeleteOutlined, EditOutlined, EyeOutlined } from '@ant-design/icons';
import type { Post } from '@leadrelay/shared';
import { Button, Popconfirm, Result, Skeleton, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { errorMessage } from '../../../lib/errors';
import { HttpError } from '../../../lib/http';
import { localePath } from '../../../lib/locale';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { PostFormModal } from '../components/post-form-modal';
import { formatPostDate } from '../post-format';
import { useAddViewMutation, useDeletePostMutation, usePostQuery } from '../queries';
import { useIsStaff } from '../use-is-staff';
import '../news.css';
import { useApp } from '../../../lib/use-app';

/** /news/{id}: one post. Opening it counts a view (the server counts once per visitor and day). */
export function NewsPostPage() {
  const { t, i18n } = useTranslation('news');
  const { message } = useApp();
  const navigate = useNavigate();
  const id = useParams().id ?? '';
  const post = usePostQuery(id);
  const staff = useIsStaff();
  const addView = useAddViewMutation();
  const remove = useDeletePostMutation();
  const [editing, setEditing] = useState<Post | null>();
  const [views, setViews] = useState<number | null>(null);
  useDocumentTitle(post.data?.title);

  const { mutate } = addView;
  useEffect(() => {
    setViews(null);
    mutate(id, { onSuccess: (r) => setViews(r.views) });
  }, [id, mutate]);

  const back = (
    <Link to={localePath('/news')}>
      <ArrowLeftOutlined aria-hidden /> {t('back')}
    </Link>
  );
  if (post.isPending) return <Skeleton active className="lr-news" />;
  if (post.isError) {
    const missing = post.error instanceof HttpError && post.error.status === 404;
    return (
      <Result
        status={missing ? '404' : 'error'}
        title={missing ? t('notFound') : errorMessage(post.error)}
        extra={back}
      />
    );
  }
  const data = post.data;
  const onDelete = async () => {
    try {
      await remove.mutateAsync(data._id);
      void message.success(t('messages.deleted'));
      void navigate(localePath('/news'));
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };

  return (
    <article className="lr-news">
      {back}
      <Typography.Title level={1} style={{ marginTop: 12 }}>
        {data.title}
      </Typography.Title>
      <div className="lr-news-meta">
        {formatPostDate(data.createdAt, i18n.language)} · <EyeOutlined aria-hidden />{' '}
        {t('views', { count: views ?? data.views })}
      </div>
      {staff && (
        <Space style={{ marginTop: 12 }}>
          <Button icon={<EditOutlined aria-hidden />} onClick={() => setEditing(data)}>
            {t('edit')}
          </Button>
          <Popconfirm
            title={t('deleteConfirm')}
            okText={t('delete')}
            cancelText={t('form.cancel')}
            onConfirm={onDelete}
          >
            <Button danger icon={<DeleteOutlined aria-hidden />}>
              {t('delete')}
            </Button>
          </Popconfirm>
        </Space>
      )}
      <img className="lr-post-image" src={data.image} alt={data.title} />
      {/* Sanitised by the server (sanitize-html, an allow-list of tags without scripts or handlers). */}
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: the server sanitises every post's HTML */}
      <div className="lr-post-text" dangerouslySetInnerHTML={{ __html: data.text }} />
      <PostFormModal post={editing} onClose={() => setEditing(undefined)} />
    </article>
  );
}
