import type { Integration } from '@leadrelay/shared';
import { Alert, Button, Form, Input, Modal, Select, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../../lib/errors';
import { applyServerErrors } from '../../../lib/form';
import { localePath } from '../../../lib/locale';
import { useApp } from '../../../lib/use-app';
import { useCreateFbIntegrationMutation, useFbLeadFormsQuery, useFbPageItemsQuery } from '../queries';

interface Values {
  name: string;
  page?: string;
  formId?: string;
}

interface Props {
  open: boolean;
  onClose: () => void;
  onCreated: (integration: Integration) => void;
}

const SEP = '|';
const pageValue = (connectionId: string, pageId: string) => `${connectionId}${SEP}${pageId}`;

/** A new facebook source: which page (of which connection) and which of its lead forms. */
export function CreateFbIntegrationModal({ open, onClose, onCreated }: Props) {
  const { t } = useTranslation('facebook');
  const { t: tc } = useTranslation('common');
  const { message } = useApp();
  const navigate = useNavigate();
  const [form] = Form.useForm<Values>();
  const pages = useFbPageItemsQuery();
  const chosen = Form.useWatch('page', form);
  const [connectionId, pageId] = chosen ? chosen.split(SEP) : [];
  const forms = useFbLeadFormsQuery(connectionId, pageId);
  const create = useCreateFbIntegrationMutation();

  useEffect(() => {
    if (!open) form.resetFields();
  }, [open, form]);

  const onFinish = async (values: Values) => {
    if (!connectionId || !pageId || !values.formId) return;
    try {
      const saved = await create.mutateAsync({
        name: values.name.trim(),
        settings: { fbConnectionId: connectionId, fbPageId: pageId, fbFormId: values.formId },
      });
      onCreated(saved);
    } catch (err) {
      if (!applyServerErrors(form, err)) void message.error(errorMessage(err));
    }
  };
  const onFormPicked = (formId: string) => {
    const picked = forms.data?.find((f) => f.id === formId);
    const page = pages.data?.find((p) => pageValue(p.connectionId, p.pageId) === chosen);
    if (picked && page && !form.isFieldTouched('name')) {
      form.setFieldValue('name', `${page.pageName} — ${picked.name}`.slice(0, 100));
    }
  };
  const noPages = pages.data?.length === 0;

  return (
    <Modal
      open={open}
      title={t('create.title')}
      onCancel={onClose}
      okText={t('create.submit')}
      cancelText={tc('cancel')}
      onOk={() => form.submit()}
      okButtonProps={{ loading: create.isPending, disabled: noPages }}
      destroyOnHidden
    >
      {noPages ? (
        <Alert
          type="info"
          showIcon
          title={t('create.noPages')}
          action={
            <Button size="small" onClick={() => navigate(localePath('/admin/integrations/facebook'))}>
              {t('connect.button')}
            </Button>
          }
        />
      ) : (
        <Form<Values> form={form} layout="vertical" onFinish={onFinish} requiredMark={false}>
          <Form.Item
            name="page"
            label={t('create.page')}
            rules={[{ required: true, message: t('create.pageRequired') }]}
          >
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              loading={pages.isPending}
              placeholder={t('create.pagePlaceholder')}
              onChange={() => form.setFieldValue('formId', undefined)}
              options={(pages.data ?? []).map((p) => ({
                value: pageValue(p.connectionId, p.pageId),
                label: `${p.pageName} (${p.connectionName})`,
              }))}
            />
          </Form.Item>
          <Form.Item
            name="formId"
            label={t('create.form')}
            rules={[{ required: true, message: t('create.formRequired') }]}
            extra={forms.isError ? <Typography.Text type="danger">{t('somethingWrong')}</Typography.Text> : undefined}
          >
            <Select
              disabled={!chosen}
              loading={forms.isFetching}
              placeholder={t('create.formPlaceholder')}
              onChange={onFormPicked}
              options={(forms.data ?? []).map((f) => ({ value: f.id, label: f.name }))}
            />
          </Form.Item>
          <Form.Item
            name="name"
            label={t('create.name')}
            rules={[{ required: true, whitespace: true, message: t('create.nameRequired') }]}
          >
            <Input maxLength={100} />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
