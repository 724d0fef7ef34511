import { PlusOutlined } from '@ant-design/icons';
import type { FbLeadForm } from '@leadrelay/shared';
import { Alert, Button, Empty, Skeleton, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PermissionGuard } from '../../../components/permission-guard';
import { errorMessage } from '../../../lib/errors';
import { integrationPath } from '../../../lib/integrations/integration-path';
import { useApp } from '../../../lib/use-app';
import { useCreateFbIntegrationMutation, useFbPageStateQuery } from '../queries';

interface Props {
  connectionId: string;
  pageId: string;
  pageName: string;
}

const statusColor = (status: string) => (status === 'ACTIVE' ? 'green' : status === 'ARCHIVED' ? 'default' : 'orange');

/** A page's lead forms, live from Facebook, each with its questions and "Create integration". */
export function LeadForms({ connectionId, pageId, pageName }: Props) {
  const { t } = useTranslation('facebook');
  const { message } = useApp();
  const navigate = useNavigate();
  const state = useFbPageStateQuery(connectionId, pageId);
  const create = useCreateFbIntegrationMutation();

  const onCreate = async (form: FbLeadForm) => {
    try {
      const saved = await create.mutateAsync({
        name: `${pageName} — ${form.name}`.slice(0, 100),
        settings: { fbConnectionId: connectionId, fbPageId: pageId, fbFormId: form.id },
      });
      void message.success(t('forms.created'));
      navigate(integrationPath(saved));
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };

  if (state.isPending) return <Skeleton active paragraph={{ rows: 2 }} />;
  if (state.isError) return <Alert type="error" showIcon title={errorMessage(state.error)} />;
  const forms = state.data.leadForms;
  if (forms.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('forms.none')} />;

  return (
    <div className="lr-fb-forms">
      {forms.map((form) => (
        <div key={form.id} className="lr-fb-form" data-testid="fb-form">
          <div className="lr-fb-form-main">
            <div className="lr-fb-form-head">
              <Typography.Text strong className="lr-break">
                {form.name}
              </Typography.Text>
              <Tag color={statusColor(form.status)}>
                {t(`forms.statuses.${form.status}` as 'forms.statuses.ACTIVE', { defaultValue: form.status })}
              </Tag>
            </div>
            <div className="lr-fb-questions" title={t('forms.questions')}>
              {form.questions.map((q) => (
                <Tag key={q.key} title={q.key}>
                  {q.label}
                </Tag>
              ))}
            </div>
          </div>
          <PermissionGuard>
            <Button
              size="small"
              icon={<PlusOutlined aria-hidden />}
              loading={create.isPending && create.variables?.settings.fbFormId === form.id}
              onClick={() => onCreate(form)}
              aria-label={t('forms.createFor', { name: form.name })}
            >
              {t('forms.create')}
            </Button>
          </PermissionGuard>
        </div>
      ))}
    </div>
  );
}
