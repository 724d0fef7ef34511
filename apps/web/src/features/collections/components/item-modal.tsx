import { type CollectionItem, ZCollectionItemBody } from '@leadrelay/shared';
import { Form, Input, InputNumber, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { translateCode } from '../../../lib/errors';
import { zodRule } from '../../../lib/form';
import { useModalSubmit } from './use-modal-submit';

export interface ItemValues {
  name: string;
  value: string;
  weight: number;
}

interface Props {
  open: boolean;
  /** The item being edited; absent when adding. */
  item?: CollectionItem | null;
  onClose: () => void;
  onSubmit: (values: ItemValues) => Promise<unknown>;
}

const { shape } = ZCollectionItemBody;

/** Add or edit one item: who gets the leads (name), their id in the CRM (value) and their weight. */
export function ItemModal({ open, item, onClose, onSubmit }: Props) {
  const { t } = useTranslation('collections');
  const { t: tc } = useTranslation('common');
  const [form] = Form.useForm<ItemValues>();
  const { busy, onFinish } = useModalSubmit<ItemValues>(
    form,
    (values) => onSubmit({ name: values.name.trim(), value: values.value.trim(), weight: values.weight }),
    onClose,
  );

  return (
    <Modal
      open={open}
      title={item ? t('item.editTitle') : t('item.addTitle')}
      okText={item ? tc('save') : t('item.add')}
      cancelText={tc('cancel')}
      okButtonProps={{ loading: busy, htmlType: 'submit', form: 'lr-collection-item-form' }}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form
        form={form}
        id="lr-collection-item-form"
        layout="vertical"
        initialValues={{ name: item?.name ?? '', value: item?.value ?? '', weight: item?.weight ?? 1 }}
        onFinish={onFinish}
      >
        <Form.Item name="name" label={t('fields.itemName')} rules={[zodRule(shape.name)]}>
          <Input autoFocus maxLength={100} placeholder={t('fields.itemNamePlaceholder')} />
        </Form.Item>
        <Form.Item name="value" label={t('fields.value')} extra={t('fields.valueHint')} rules={[zodRule(shape.value)]}>
          <Input maxLength={500} placeholder={t('fields.valuePlaceholder')} />
        </Form.Item>
        <Form.Item
          name="weight"
          label={t('fields.weight')}
          extra={t('fields.weightHint')}
          validateFirst
          rules={[{ required: true, message: translateCode('REQUIRED') }, zodRule(shape.weight)]}
        >
          <InputNumber min={1} max={100} precision={0} className="lr-weight-input" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
