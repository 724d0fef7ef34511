import { useTranslation } from 'react-i18next';
import './plain/plain.css';

/** What shows while a page's code or the session loads: plain markup, before antd is there. */
export function FullPageSpinner({ inline = false }: { inline?: boolean }) {
  const { t } = useTranslation();
  return (
    <div className={inline ? 'lr-spinner-inline' : 'lr-center'} role="status" aria-busy="true">
      <span className="lr-spin lr-spin-lg" aria-hidden="true" />
      <span className="lr-sr-only">{t('loading')}</span>
    </div>
  );
}
