import { FacebookFilled } from '@ant-design/icons';
import { Avatar } from 'antd';
import { useFbPictureQuery } from '../queries';

/** A Facebook profile's or page's picture (kept 2 hours); the Facebook mark while it loads or when there is none. */
export function FbAvatar({ accountId, name, size = 40 }: { accountId: string; name: string; size?: number }) {
  const picture = useFbPictureQuery(accountId);
  const url = picture.data?.url;
  return (
    <Avatar
      size={size}
      src={url || undefined}
      icon={url ? undefined : <FacebookFilled aria-hidden />}
      alt={name}
      className="lr-fb-avatar"
    />
  );
}
