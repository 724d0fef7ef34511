import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { localePath } from '../lib/locale';

/** Spec section 8: "This page could not be found", with a link back to the main page. */
export function NotFound() {
  const { t } = useTranslation('pages');
  return (
    <Result
      status="404"
      title={t('notFound.code')}
      subTitle={<h1 className="lr-result-title">{t('notFound.title')}</h1>}
      extra={
        <Link to={localePath('/')}>
          <Button type="primary">{t('notFound.back')}</Button>
        </Link>
      }
    />
  );
}
