import { ClockCircleOutlined } from '@ant-design/icons';
import { Button, Card, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { localePath } from '../lib/locale';
import { useRouteTitle } from './page-title';

/** The honest panel of every page not built yet; its title comes from the route table. */
export function ComingSoon() {
  const { t } = useTranslation('pages');
  const title = useRouteTitle();
  return (
    <Card className="lr-coming-soon" data-testid="coming-soon">
      <Result
        icon={<ClockCircleOutlined aria-hidden style={{ color: 'var(--lr-primary)' }} />}
        title={<h1 className="lr-coming-title">{title}</h1>}
        subTitle={t('comingSoon.text')}
        extra={
          <Link to={localePath('/admin')}>
            <Button>{t('comingSoon.back')}</Button>
          </Link>
        }
      />
    </Card>
  );
}
