import type { GuardianSettings } from '@leadrelay/shared';
import { Card, Skeleton, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/errors';
import { useApp } from '../../../lib/use-app';
import { useGuardianSettingsQuery, useSaveGuardianSettingsMutation } from '../queries';

const SWITCHES = [
  { key: 'mailDrought', label: 'settings.drought', hint: 'settings.droughtHint' },
  { key: 'mailExpiry', label: 'settings.expiry', hint: 'settings.expiryHint' },
  { key: 'weeklyMail', label: 'settings.weekly', hint: 'settings.weeklyHint' },
] as const;

/** Which of the guardian's mails the account gets; each switch saves at once. */
export function GuardianSettingsCard() {
  const { t } = useTranslation('guardian');
  const { message } = useApp();
  const settings = useGuardianSettingsQuery();
  const save = useSaveGuardianSettingsMutation();
  const toggle = (key: keyof GuardianSettings, on: boolean) => {
    if (!settings.data) return;
    save.mutate(
      { ...settings.data, [key]: on },
      {
        onSuccess: () => void message.success(t('settings.saved')),
        onError: (error) => void message.error(errorMessage(error)),
      },
    );
  };
  return (
    <Card title={t('settings.title')} data-testid="guardian-settings">
      {!settings.data ? (
        <Skeleton active paragraph={{ rows: 3 }} />
      ) : (
        SWITCHES.map((s) => (
          <div className="lr-guardian-setting" key={s.key}>
            <div className="lr-guardian-setting-text">
              <Typography.Text strong id={`guardian-${s.key}`}>
                {t(s.label)}
              </Typography.Text>
              <Typography.Text type="secondary">{t(s.hint)}</Typography.Text>
            </div>
            <Switch
              aria-labelledby={`guardian-${s.key}`}
              checked={settings.data[s.key]}
              loading={save.isPending && save.variables?.[s.key] !== settings.data[s.key]}
              onChange={(on) => toggle(s.key, on)}
            />
          </div>
        ))
      )}
    </Card>
  );
}
