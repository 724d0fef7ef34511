import '../../../components/integrations/integrations.css';
import '../parsers.css';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { ZParserCreateBody } from '@leadrelay/shared';
import { Button, Card, Form, Input, Radio, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { PermissionGuard } from '../../../components/permission-guard';
import { errorMessage } from '../../../lib/errors';
import { applyServerErrors, zodRule } from '../../../lib/form';
import { localePath } from '../../../lib/locale';
import { useApp } from '../../../lib/use-app';
import { PRESETS, type PresetKey } from '../presets';
import { useCreateParserMutation } from '../queries';
import { parserPath } from './parsers-page';

/** /admin/parsers/create: a name and what mail it is for; the rules are tuned on the parser's page. */
export function ParserCreatePage() {
  const { t } = useTranslation('parsers');
  const { message } = useApp();
  const navigate = useNavigate();
  const create = useCreateParserMutation();
  const [form] = Form.useForm<{ name: string; preset: PresetKey }>();

  const onFinish = async ({ name, preset }: { name: string; preset: PresetKey }) => {
    try {
      const created = await create.mutateAsync({ name: name.trim(), rules: PRESETS[preset] });
      navigate(parserPath(created._id));
    } catch (err) {
      if (!applyServerErrors(form, err)) void message.error(errorMessage(err));
    }
  };

  return (
    <div className="lr-page lr-parser-create">
      <Link to={localePath('/admin/parsers')} className="lr-back">
        <ArrowLeftOutlined aria-hidden /> {t('create.back')}
      </Link>
      <Typography.Title level={2} className="lr-page-title">
        {t('create.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('create.subtitle')}</Typography.Paragraph>
      <Card>
        <Form
          form={form}
          layout="vertical"
          requiredMark={false}
          onFinish={onFinish}
          initialValues={{ name: '', preset: 'none' }}
        >
          <Form.Item name="name" label={t('create.name')} rules={[zodRule(ZParserCreateBody.shape.name)]}>
            <Input maxLength={100} placeholder={t('create.namePlaceholder')} autoFocus />
          </Form.Item>
          <Form.Item name="preset" label={t('create.preset')}>
            <Radio.Group
              className="lr-parser-presets"
              options={(Object.keys(PRESETS) as PresetKey[]).map((key) => ({
                value: key,
                label: t(`create.presets.${key}`),
              }))}
            />
          </Form.Item>
          <div className="lr-actions">
            <PermissionGuard>
              <Button type="primary" htmlType="submit" loading={create.isPending}>
                {t('create.submit')}
              </Button>
            </PermissionGuard>
            <Link to={localePath('/admin/parsers')}>
              <Button>{t('create.cancel')}</Button>
            </Link>
          </div>
        </Form>
      </Card>
    </div>
  );
}
