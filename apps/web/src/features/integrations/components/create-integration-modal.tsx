import type { Integration, Setting } from '@leadrelay/shared';
import { Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { CreateIntegrationForm } from './create-integration-form';

interface Props {
  open: boolean;
  presetType?: string;
  kind?: Setting['kind'];
  onClose: () => void;
  onCreated: (integration: Integration) => void;
}

/** The picker as a modal, so every client can create integrations from the list. */
export function CreateIntegrationModal({ open, presetType, kind, onClose, onCreated }: Props) {
  const { t } = useTranslation('integrations');
  return (
    <Modal
      open={open}
      title={t('create.title')}
      footer={null}
      onCancel={onClose}
      destroyOnHidden
      width={760}
      centered
      className="lr-picker-modal"
    >
      <CreateIntegrationForm
        key={presetType ?? 'any'}
        presetType={presetType}
        kind={kind}
        onCancel={onClose}
        onCreated={onCreated}
      />
    </Modal>
  );
}
