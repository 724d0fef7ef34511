import { ZCollectionBody } from '@leadrelay/shared';
import { App, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/errors';
import { applyServerErrors, zodRule } from '../../../lib/form';

interface Props {
  open: boolean;
  title: string;
  okText: string;
  initialName?: string;
  onClose: () => void;
  /** Resolves when saved (the modal then closes); a rejection is shown in the form. */
  onSubmit: (name: string) => Promise<unknown>;
}

/** Create or rename a collection. */
export function NameModal({ open, title, okText, initialName, onClose, onSubmit }: Props) {
  const { t } = useTranslation('collections');
  const { t: tc } = useTranslation('common');
  const { message } = App.useApp();
  const [form] = Form.useForm<{ name: string }>();
  const [busy, setBusy] = useState(false);

  const onFinish = async ({ name }: { name: string }) => {
    setBusy(true);
    try {
      await onSubmit(name.trim());
      onClose();
    } catch (err) {
      if (!applyServerErrors(form, err)) void message.error(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      title={title}
      okText={okText}
      cancelText={tc('cancel')}
      okButtonProps={{ loading: busy, htmlType: 'submit', form: 'lr-collection-name-form' }}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form
        form={form}
        id="lr-collection-name-form"
        layout="vertical"
        initialValues={{ name: initialName ?? '' }}
        onFinish={onFinish}
      >
        <Form.Item name="name" label={t('fields.name')} rules={[zodRule(ZCollectionBody.shape.name)]}>
          <Input autoFocus maxLength={100} placeholder={t('fields.namePlaceholder')} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
