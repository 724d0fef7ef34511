import type { Parser } from '@leadrelay/shared';
import { Card, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { PermissionGuard } from '../../../components/permission-guard';
import { errorMessage } from '../../../lib/errors';
import { useApp } from '../../../lib/use-app';
import { useUpdateParserMutation } from '../queries';

/** The parser's address with copy, and whether it takes mail. */
export function AddressCard({ parser }: { parser: Parser }) {
  const { t } = useTranslation('parsers');
  const { message } = useApp();
  const update = useUpdateParserMutation(parser._id);
  const toggle = async (active: boolean) => {
    try {
      await update.mutateAsync({ active });
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };
  return (
    <Card title={t('address.title')}>
      <Typography.Paragraph type="secondary">{t('address.hint')}</Typography.Paragraph>
      <Typography.Paragraph
        className="lr-parser-address"
        copyable={{ text: parser.address, tooltips: [t('address.copy'), t('address.copied')] }}
        data-testid="parser-address"
      >
        {parser.address}
      </Typography.Paragraph>
      <div className="lr-parser-switch">
        <PermissionGuard>
          <Switch
            checked={parser.active}
            onChange={toggle}
            loading={update.isPending}
            aria-label={t('address.active')}
          />
        </PermissionGuard>
        <Typography.Text type={parser.active ? undefined : 'warning'}>
          {parser.active ? t('address.activeOn') : t('address.activeOff')}
        </Typography.Text>
      </div>
    </Card>
  );
}
