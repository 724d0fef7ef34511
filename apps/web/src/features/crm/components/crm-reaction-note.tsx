import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** Speed to lead (issue 19): a stage change in the CRM counts as the lead's first reaction. */
export function CrmReactionNote({ crmName }: { crmName: string }) {
  const { t } = useTranslation('crm');
  return (
    <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }} data-testid="crm-reaction-note">
      {t('connection.reactionNote', { crm: crmName })}
    </Typography.Paragraph>
  );
}
