import { Alert, Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { returnToOwnSession, useImpersonation } from '../lib/impersonation';
import './impersonation-banner.css';

/** On every page of an entered session: whose account this is, and the way back. */
export function ImpersonationBanner() {
  const { t } = useTranslation('clients');
  const entered = useImpersonation();
  const [leaving, setLeaving] = useState(false);
  if (!entered) return null;
  return (
    <Alert
      type="warning"
      banner
      className="lr-impersonation"
      data-testid="impersonation-banner"
      title={t('banner.text', { login: entered.login, operator: entered.operator })}
      action={
        <Button
          size="small"
          type="primary"
          loading={leaving}
          onClick={() => {
            setLeaving(true);
            void returnToOwnSession();
          }}
        >
          {t('banner.return')}
        </Button>
      }
    />
  );
}
