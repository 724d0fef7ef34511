import { EyeOutlined } from '@ant-design/icons';
import type { Post } from '@leadrelay/shared';
import { Card, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { localePath } from '../../../lib/locale';
import { formatPostDate, postExcerpt, postVersion } from '../post-format';

export function PostCard({ post, locale }: { post: Post; locale: string }) {
  const { t } = useTranslation('news');
  const href = localePath(`/news/${post._id}`);
  const shown = postVersion(post, locale);
  return (
    <Link to={href} className="lr-news-card-link" aria-label={shown.title}>
      <Card hoverable className="lr-news-card" cover={<img src={post.image} alt="" loading="lazy" />}>
        <Card.Meta
          title={<span lang={shown.lang}>{shown.title}</span>}
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
