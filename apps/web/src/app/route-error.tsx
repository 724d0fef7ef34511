import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useLocation, useRouteError } from 'react-router';
import { NotFound } from '../components/not-found';
import { errorMessage } from '../lib/errors';
import { localeFromPath } from '../lib/locale';
import { AppTheme } from './theme';

/** Error layout for anything a route throws. */
export function RouteErrorPage() {
  const error = useRouteError();
  const { t } = useTranslation('pages');
  const locale = localeFromPath(useLocation().pathname);
  if (error) console.error(error);
  return (
    <AppTheme locale={locale}>
      <div className="lr-center">
        {isRouteErrorResponse(error) && error.status === 404 ? (
          <NotFound />
        ) : (
          <Result
            status="error"
            title={t('error.title')}
            subTitle={errorMessage(error)}
            extra={
              <Button type="primary" onClick={() => window.location.reload()}>
                {t('error.reload')}
              </Button>
            }
          />
        )}
      </div>
    </AppTheme>
  );
}
