import { ZCollectionBody } from '@leadrelay/shared';
import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { zodRule } from '../../../lib/form';
import { useModalSubmit } from './use-modal-submit';

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
  const [form] = Form.useForm<{ name: string }>();
  const { busy, onFinish } = useModalSubmit<{ name: string }>(form, ({ name }) => onSubmit(name.trim()), onClose);

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
