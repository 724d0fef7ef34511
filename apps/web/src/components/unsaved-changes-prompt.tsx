import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router';
import { discardUnsavedChanges, hasUnsavedChanges } from '../lib/unsaved-changes';
import { useApp } from '../lib/use-app';

/**
 * Asks before leaving a page (a link, the back button) while one of its forms has unsaved changes;
 * switching tabs on the same page is not leaving. One per layout: a router has one blocker.
 */
export function UnsavedChangesPrompt() {
  const { t } = useTranslation('common');
  const { modal } = useApp();
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => hasUnsavedChanges() && currentLocation.pathname !== nextLocation.pathname,
  );
  const asking = useRef(false);

  useEffect(() => {
    if (blocker.state !== 'blocked' || asking.current) return;
    asking.current = true;
    modal.confirm({
      title: t('unsaved.title'),
      content: t('unsaved.text'),
      okText: t('unsaved.leave'),
      okButtonProps: { danger: true },
      cancelText: t('unsaved.stay'),
      onOk: () => {
        asking.current = false;
        discardUnsavedChanges();
        blocker.proceed();
      },
      onCancel: () => {
        asking.current = false;
        blocker.reset();
      },
    });
  }, [blocker, modal, t]);

  return null;
}
