import { EyeOutlined } from '@ant-design/icons';
import type { Post } from '@leadrelay/shared';
import { Card, Tag } from 'antd';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { localePath } from '../../../lib/locale';
import { formatPostDate, postExcerpt, postVersion } from '../post-format';

export function PostCard({ post, locale }: { post: Post; locale: string }) {
  const { t } = useTranslation('news');
  const href = localePath(`/news/${post._id}`);
  const shown = postVersion(post, locale);
  // The link is named by the title, in the title's language (lang on the element it points to).
  const titleId = useId();
  return (
    <Link to={href} className="lr-news-card-link" aria-labelledby={titleId}>
      <Card hoverable className="lr-news-card" cover={<img src={post.image} alt="" loading="lazy" />}>
        <Card.Meta
          title={
            <span id={titleId} lang={shown.lang}>
              {shown.title}
            </span>
          }
          description={
            <>
              {shown.isOtherLanguage && (
                <Tag className="lr-news-lang" data-testid="post-only-uk">
                  {t('onlyUkShort')}
                </Tag>
              )}
              <div className="lr-news-excerpt" lang={shown.lang}>
                {postExcerpt(shown.text)}
              </div>
              <div className="lr-news-meta">
                {formatPostDate(post.createdAt, locale)} · <EyeOutlined aria-hidden /> {post.views}
              </div>
            </>
          }
        />
      </Card>
    </Link>
  );
}
