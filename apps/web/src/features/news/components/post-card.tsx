import { EyeOutlined } from '@ant-design/icons';
import type { Post } from '@leadrelay/shared';
import { Card } from 'antd';
import { Link } from 'react-router';
import { localePath } from '../../../lib/locale';
import { formatPostDate, postExcerpt } from '../post-format';

export function PostCard({ post, locale }: { post: Post; locale: string }) {
  const href = localePath(`/news/${post._id}`);
  return (
    <Link to={href} className="lr-news-card-link" aria-label={post.title}>
      <Card hoverable className="lr-news-card" cover={<img src={post.image} alt="" loading="lazy" />}>
        <Card.Meta
          title={post.title}
          description={
            <>
              <div className="lr-news-excerpt">{postExcerpt(post.text)}</div>
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
