import { type LocaleAddBody, ZLocaleEntry } from '@leadrelay/shared';
import { Form, Input, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/errors';
import { applyServerErrors, zodRule } from '../../../lib/form';
import { useApp } from '../../../lib/use-app';
import { useAddLanguageMutation } from '../queries';

/** A new language, by its locale entry (code, iso, file, domain, dir) and its own name. */
export function AddLanguageModal({
  open,
  onClose,
  onAdded,
}: {
  open: boolean;
  onClose: () => void;
  onAdded: (code: string) => void;
}) {
  const { t } = useTranslation('translations');
  const { message } = useApp();
  const [form] = Form.useForm<LocaleAddBody>();
  const add = useAddLanguageMutation();
  const submit = async (values: LocaleAddBody) => {
    try {
      const entry = await add.mutateAsync({ ...values, domain: values.domain ?? '' });
      void message.success(t('add.done', { name: entry.name }));
      form.resetFields();
      onAdded(entry.code);
    } catch (err) {
      if (!applyServerErrors(form, err)) void message.error(errorMessage(err));
    }
  };
  return (
    <Modal
      open={open}
      title={t('add.title')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('add.submit')}
      confirmLoading={add.isPending}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={{ dir: 'ltr', domain: '' }} onFinish={submit}>
        <Form.Item name="name" label={t('add.name')} rules={[{ required: true, message: t('add.required') }]}>
          <Input placeholder="Polski" />
        </Form.Item>
        <Form.Item
          name="code"
          label={t('add.code')}
          extra={t('add.codeHelp')}
          rules={[zodRule(ZLocaleEntry.shape.code)]}
        >
          <Input placeholder="pl" />
        </Form.Item>
        <Form.Item name="iso" label={t('add.iso')} extra={t('add.isoHelp')} rules={[zodRule(ZLocaleEntry.shape.iso)]}>
          <Input placeholder="pl-PL" />
        </Form.Item>
        <Form.Item name="file" label={t('add.file')} rules={[zodRule(ZLocaleEntry.shape.file)]}>
          <Input placeholder="pl.json" />
        </Form.Item>
        <Form.Item name="domain" label={t('add.domain')} extra={t('add.domainHelp')}>
          <Input />
        </Form.Item>
        <Form.Item name="dir" label={t('add.dir')}>
          <Select
            options={[
              { value: 'ltr', label: t('add.ltr') },
              { value: 'rtl', label: t('add.rtl') },
            ]}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
