import { INTEGRATION_STATE_TONE, type Integration, type IntegrationState } from '@leadrelay/shared';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { reasonLabel, stateKey } from '../../lib/integrations/reasons';

export { checkReason, reasonLabel, reasonText, stateLabel } from '../../lib/integrations/reasons';

const TONE_COLOR = { ok: 'green', warn: 'orange', error: 'red', off: 'default' } as const;

/** The one computed status (server-side integration-state.ts): a coloured tag and, if asked, its reason. */
export function StateTag({ state, withReason = true }: { state: IntegrationState; withReason?: boolean }) {
  const { t } = useTranslation('integrations');
  const tone = INTEGRATION_STATE_TONE[state.code];
  return (
    <span className="lr-int-status" data-state={state.code}>
      <Tag color={TONE_COLOR[tone]} className="lr-state-tag">
        {t(`state.${stateKey(state.code)}` as never)}
      </Tag>
      {withReason && state.reason && (
        <span className={`${tone === 'error' ? 'lr-text-danger' : 'lr-text-secondary'} lr-int-reason`}>
          {reasonLabel(state.reason)}
        </span>
      )}
    </span>
  );
}

/** An integration's status: the same tag, words and colour on every screen that shows it. */
export function StatusTag({ integration, withReason = true }: { integration: Integration; withReason?: boolean }) {
  return <StateTag state={integration.state} withReason={withReason} />;
}
