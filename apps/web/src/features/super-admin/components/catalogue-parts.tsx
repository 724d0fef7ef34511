// What the catalogue tabs (types, categories, modules) share: the page head with its create
// button, the form dialog that creates or edits one entry, and a row of tags.
import { PlusOutlined } from '@ant-design/icons';
import { Button, Form, type FormInstance, Modal, Tag, Typography } from 'antd';
import { Fragment, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export function CataloguePageHead(props: {
  title: string;
  createLabel: string;
  onCreate: () => void;
  disabled?: boolean;
}) {
  return (
    <div className="lr-page-head">
      <Typography.Title level={3} className="lr-page-title">
        {props.title}
      </Typography.Title>
      <Button type="primary" icon={<PlusOutlined aria-hidden />} disabled={props.disabled} onClick={props.onCreate}>
        {props.createLabel}
      </Button>
    </div>
  );
}

export function CatalogueFormModal<T>(props: {
  open: boolean;
  title: string;
  form: FormInstance<T>;
  pending: boolean;
  onCancel: () => void;
  onSubmit: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation('catalogue');
  return (
    <Modal
      open={props.open}
      title={props.title}
      onCancel={props.onCancel}
      onOk={props.onSubmit}
      okText={t('save')}
      cancelText={t('cancel')}
      confirmLoading={props.pending}
      destroyOnHidden
    >
      <Form form={props.form} layout="vertical">
        {props.children}
      </Form>
    </Modal>
  );
}

/** Tags with a space between them, so they read as separate words (a screen reader, a copied row). */
export function TagRow({ items }: { items: { key: string; label: string }[] }) {
  return (
    <span>
      {items.map((item, i) => (
        <Fragment key={item.key}>
          {i > 0 && ' '}
          <Tag>{item.label}</Tag>
        </Fragment>
      ))}
    </span>
  );
}
