import { Modal, message, notification } from 'antd';
import { useEffect } from 'react';
import type { AppApi } from '../lib/use-app';

/** What antd's App renders and provides: the holders of message, notification and modal, and their APIs. */
export function AppHolders({ onReady }: { onReady: (api: AppApi) => void }) {
  const [messageApi, messageHolder] = message.useMessage();
  const [notificationApi, notificationHolder] = notification.useNotification();
  const [modalApi, modalHolder] = Modal.useModal();
  useEffect(
    () => onReady({ message: messageApi, notification: notificationApi, modal: modalApi }),
    [onReady, messageApi, notificationApi, modalApi],
  );
  return (
    <>
      {modalHolder}
      {messageHolder}
      {notificationHolder}
    </>
  );
}
