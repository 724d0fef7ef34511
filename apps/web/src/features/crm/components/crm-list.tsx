import '../../../components/integrations/integrations.css';
import '../crm.css';
import { ArrowLeftOutlined, LinkOutlined } from '@ant-design/icons';
import { Button, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { IntegrationsList } from '../../../components/integrations/integrations-list';
import { PermissionGuard } from '../../../components/permission-guard';
import { localePath } from '../../../lib/locale';
import { type CreateValues, CrmCreateModal } from './crm-create-modal';

/** What a CRM's own "connect" modal gets (Uspacy asks for a portal and credentials, not a consent). */
export interface CreateModalProps<V> {
  open: boolean;
  busy: boolean;
  onCancel: () => void;
  onSubmit: (values: V) => void;
}

interface Props<V> {
  type: 'amocrm' | 'pipedrive' | 'uspacy';
  crmName: string;
  withToken?: boolean;
  busy: boolean;
  /** Creates the integration and starts its authorisation; resolves true when the modal may close. */
  onCreate: (values: V) => Promise<boolean>;
  /** The CRM's own modal instead of the name-and-consent one. */
  modal?: (props: CreateModalProps<V>) => ReactNode;
}

/** The account's integrations of one CRM, with "Connect <CRM>". */
export function CrmList<V = CreateValues>({ type, crmName, withToken, busy, onCreate, modal }: Props<V>) {
  const { t } = useTranslation('crm');
  const { t: ti } = useTranslation('integrations');
  const [open, setOpen] = useState(false);
  const submit = async (values: V) => {
    if (await onCreate(values)) setOpen(false);
  };

  return (
    <div className="lr-page">
      <Link to={localePath('/admin/integrations')} className="lr-back">
        <ArrowLeftOutlined aria-hidden /> {ti('page.allIntegrations')}
      </Link>
      <div className="lr-page-head">
        <div className="lr-min0">
          <Typography.Title level={2} className="lr-page-title">
            {crmName}
          </Typography.Title>
          <Typography.Paragraph type="secondary">{t(`list.subtitle.${type}`)}</Typography.Paragraph>
        </div>
        <PermissionGuard>
          <Button type="primary" icon={<LinkOutlined aria-hidden />} onClick={() => setOpen(true)}>
            {t('list.connect', { crm: crmName })}
          </Button>
        </PermissionGuard>
      </div>
      <IntegrationsList fixedType={type} onCreate={() => setOpen(true)} />
      {modal ? (
        modal({ open, busy, onCancel: () => setOpen(false), onSubmit: (v) => void submit(v) })
      ) : (
        <CrmCreateModal
          open={open}
          crmName={crmName}
          withToken={withToken}
          busy={busy}
          onCancel={() => setOpen(false)}
          onSubmit={(v) => void submit(v as V)}
        />
      )}
    </div>
  );
}
