import { INTEGRATION_STATE_TONE, type IntegrationState } from '@leadrelay/shared';
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { stateKey } from '../../lib/integrations/reasons';
import { ReasonDetails } from './reason-details';
import { reasonLabel } from './status-tag';

/**
 * Above an integration's tabs: what its status asks of the user, in the words of the status tag
 * (nothing while it works or is switched off).
 */
export function StateAlert({ state }: { state: IntegrationState }) {
  const { t } = useTranslation('integrations');
  const tone = INTEGRATION_STATE_TONE[state.code];
  if (tone === 'ok' || tone === 'off') return null;
  return (
    <Alert
      className="lr-mb"
      type={tone === 'error' ? 'error' : 'warning'}
      showIcon
      role="status"
      data-testid="state-alert"
      title={t(`stateHint.${stateKey(state.code)}` as never)}
      description={
        state.reason ? (
          <>
            {reasonLabel(state.reason)}
            <ReasonDetails reason={state.reason} />
          </>
        ) : undefined
      }
    />
  );
}
