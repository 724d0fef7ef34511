import { ApiOutlined, PlusOutlined } from '@ant-design/icons';
import { daysLeft, headerWarning, isDemo, isUserActive } from '@leadrelay/shared';
import { Alert, Button, Card, Col, Descriptions, Empty, Row, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { FullPageSpinner } from '../../../components/full-page-spinner';
import { PermissionGuard } from '../../../components/permission-guard';
import { translateCode } from '../../../lib/errors';
import { currentLocale, localePath } from '../../../lib/locale';
import { useMe } from '../../auth/queries';

function formatDate(iso: string): string {
  return new Intl.DateTimeFormat(currentLocale() === 'uk' ? 'uk-UA' : 'en-GB', { dateStyle: 'long' }).format(
    new Date(`${iso.slice(0, 10)}T00:00:00Z`),
  );
}

export function DashboardPage() {
  const { t } = useTranslation('dashboard');
  const { t: tl } = useTranslation('layout');
  const { t: tc } = useTranslation('common');
  const [params] = useSearchParams();
  const { data: user } = useMe();
  const error = params.get('error');
  if (!user) return <FullPageSpinner inline />;

  const left = daysLeft(user.expDate);
  const warning = headerWarning(left);
  const active = isUserActive(user);

  return (
    <div className="lr-page">
      <Typography.Title level={2} className="lr-page-title">
        {t('greeting', { name: user.name || user.login })}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('subtitle')}</Typography.Paragraph>
      {error && <Alert className="lr-mb" type="error" showIcon role="alert" title={translateCode(error)} />}
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={9}>
          <Card title={t('status.title')} extra={<Link to={localePath('/admin/plan')}>{t('status.changePlan')}</Link>}>
            <Descriptions column={1} size="small">
              <Descriptions.Item label={t('status.tariff')}>
                {isDemo(user) ? tl('header.demo') : (user.subscription?.title ?? '—')}
              </Descriptions.Item>
              <Descriptions.Item label={t('status.daysLeft')}>
                {left === null ? (
                  '∞'
                ) : (
                  <Typography.Text type={warning === 'none' ? undefined : 'danger'}>
                    {left <= 0 ? tl('header.expired') : tc('days', { count: left })}
                  </Typography.Text>
                )}
              </Descriptions.Item>
              <Descriptions.Item label={t('status.expires')}>
                {user.expDate ? formatDate(user.expDate) : tc('never')}
              </Descriptions.Item>
              <Descriptions.Item label={t('status.state')}>
                <Tag color={active ? 'green' : 'red'}>{active ? t('status.active') : t('status.inactive')}</Tag>
              </Descriptions.Item>
            </Descriptions>
          </Card>
        </Col>
        <Col xs={24} lg={15}>
          <Card className="lr-fill">
            <Empty
              className="lr-dashboard-empty"
              image={<ApiOutlined className="lr-empty-icon" />}
              description={
                <>
                  <Typography.Title level={4}>{t('empty.title')}</Typography.Title>
                  <Typography.Paragraph type="secondary">{t('empty.text')}</Typography.Paragraph>
                </>
              }
            >
              <PermissionGuard>
                <Link to={localePath('/admin/integrations')}>
                  <Button type="primary" icon={<PlusOutlined />}>
                    {t('empty.action')}
                  </Button>
                </Link>
              </PermissionGuard>
            </Empty>
          </Card>
        </Col>
      </Row>
    </div>
  );
}
