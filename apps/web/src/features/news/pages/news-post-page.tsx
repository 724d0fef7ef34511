import { ArrowLeftOutlined, DeleteOutlined, EditOutlined, EyeOutlined } from '@ant-design/icons';
import type { Post } from '@leadrelay/shared';
import { Alert, Button, Popconfirm, Result, Skeleton, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { errorMessage } from '../../../lib/errors';
import { HttpError } from '../../../lib/http';
import { localePath } from '../../../lib/locale';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { PostFormModal } from '../components/post-form-modal';
import { formatPostDate, postVersion } from '../post-format';
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
  const shown = post.data ? postVersion(post.data, i18n.language) : null;
  useDocumentTitle(shown?.title);

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
  const version = postVersion(data, i18n.language);
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
      <Typography.Title level={1} style={{ marginTop: 12 }} lang={version.lang}>
        {version.title}
      </Typography.Title>
      {version.isOtherLanguage && (
        <Alert type="info" showIcon className="lr-news-lang-note" title={t('onlyUk')} data-testid="post-only-uk" />
      )}
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
      <img className="lr-post-image" src={data.image} alt={version.title} lang={version.lang} />
      {/* Sanitised by the server (sanitize-html, an allow-list of tags without scripts or handlers). */}
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: the server sanitises every post's HTML */}
      <div className="lr-post-text" lang={version.lang} dangerouslySetInnerHTML={{ __html: version.text }} />
      <PostFormModal post={editing} onClose={() => setEditing(undefined)} />
    </article>
  );
}
