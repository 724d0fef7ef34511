import { DownOutlined, RightOutlined } from '@ant-design/icons';
import type { FbPage } from '@leadrelay/shared';
import { Button, Switch, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PermissionGuard } from '../../../components/permission-guard';
import { useApp } from '../../../lib/use-app';
import { useSubscribeMutation } from '../queries';
import { FbAvatar } from './fb-avatar';
import { LeadForms } from './lead-forms';

/** One page of a connection: subscribe toggle (spec 4, toasts of spec 8) and its lead forms on demand. */
export function PageRow({ connectionId, page }: { connectionId: string; page: FbPage }) {
  const { t } = useTranslation('facebook');
  const { message } = useApp();
  const subscribe = useSubscribeMutation();
  const [open, setOpen] = useState(false);

  const onToggle = async (value: boolean) => {
    try {
      await subscribe.mutateAsync({ cid: connectionId, aid: page.id, subscribe: value });
      void message.success(value ? t('pages.subscribed') : t('pages.unsubscribed'));
    } catch {
      // Spec 8: social-network actions show a translated "something went wrong".
      void message.error(t('somethingWrong'));
    }
  };

  return (
    <div className="lr-fb-page" data-testid="fb-page">
      <div className="lr-fb-page-head">
        <FbAvatar accountId={page.id} name={page.name} size={32} />
        <div className="lr-fb-page-name">
          <Typography.Text strong className="lr-break">
            {page.name}
          </Typography.Text>
          {page.category && <Typography.Text type="secondary">{page.category}</Typography.Text>}
        </div>
        <span className="lr-fb-subscribe">
          <PermissionGuard>
            <Switch
              checked={page.isSubscribed}
              loading={subscribe.isPending}
              onChange={onToggle}
              aria-label={t('pages.subscribeFor', { name: page.name })}
            />
          </PermissionGuard>
          <Typography.Text type={page.isSubscribed ? 'success' : 'secondary'}>
            {page.isSubscribed ? t('pages.on') : t('pages.off')}
          </Typography.Text>
        </span>
      </div>
      <Button
        type="link"
        size="small"
        className="lr-fb-forms-toggle"
        icon={open ? <DownOutlined aria-hidden /> : <RightOutlined aria-hidden />}
        onClick={() => setOpen(!open)}
        aria-expanded={open}
      >
        {t('pages.forms')}
      </Button>
      {open && <LeadForms connectionId={connectionId} pageId={page.id} pageName={page.name} />}
    </div>
  );
}
