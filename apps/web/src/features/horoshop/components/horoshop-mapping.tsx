import { HOROSHOP_SAMPLE_ORDER, horoshopOrderPayload, type Integration } from '@leadrelay/shared';
import { Alert } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MappingSection } from '../../../components/integrations/mapping-section';

/**
 * The generic mapping editor with a typical order as its sample: the payload the server builds of
 * every order (horoshopOrderPayload, shared), so the incoming fields offered are what arrives.
 */
export function HoroshopMapping({ integration }: { integration: Integration }) {
  const { t } = useTranslation('horoshop');
  const [edited, setEdited] = useState<string | null>(null);
  const sample = edited ?? JSON.stringify(horoshopOrderPayload(HOROSHOP_SAMPLE_ORDER), null, 2);
  return (
    <>
      <Alert className="lr-mb" type="info" showIcon title={t('mapping.sample')} />
      <MappingSection integration={integration} sample={sample} onSampleChange={setEdited} />
    </>
  );
}
