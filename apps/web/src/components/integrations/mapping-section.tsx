import { type Integration, ZSourceOptions } from '@leadrelay/shared';
import { Button, Card, Col, Row } from 'antd';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/errors';
import { useUpdateIntegrationMutation } from '../../lib/integrations/queries';
import { useApp } from '../../lib/use-app';
import { HooksTable } from '../hooks/hooks-table';
import { PermissionGuard } from '../permission-guard';
import {
  draftFromOptions,
  type OptionsDraft,
  optionsFromDraft,
  parseSample,
  previewOf,
  samplePaths,
  validateDraft,
} from './mapping-draft';
import { MappingEditor } from './mapping-editor';
import { MappingPreview } from './mapping-preview';
import { TestLead } from './test-lead';

interface Props {
  integration: Integration;
  sample: string;
  onSampleChange: (text: string) => void;
  /** Off in unit tests of the editor alone. */
  withHooks?: boolean;
  /** Replaces the "send to the webhook URL" test of a source whose leads come from a service (a form's test lead). */
  testLead?: ReactNode;
}

/** The mapping editor beside its live preview; save stores the options (other option keys are kept). */
export function MappingSection({ integration, sample, onSampleChange, withHooks = true, testLead }: Props) {
  const { t } = useTranslation('integrations');
  const { t: tc } = useTranslation('common');
  const { message } = useApp();
  const update = useUpdateIntegrationMutation();
  const [draft, setDraft] = useState<OptionsDraft>(() => draftFromOptions(integration.options));
  const [dirty, setDirty] = useState(false);

  // A live refresh of the integration replaces the draft only while the user has not edited it.
  useEffect(() => {
    if (!dirty) setDraft(draftFromOptions(integration.options));
  }, [integration.options, dirty]);

  const errors = useMemo(() => validateDraft(draft), [draft]);
  const parsed = useMemo(() => parseSample(sample), [sample]);
  const preview = useMemo(() => (parsed.ok ? previewOf(draft, parsed.payload) : null), [draft, parsed]);
  const paths = useMemo(() => (parsed.ok ? samplePaths(parsed.payload) : []), [parsed]);

  const onChange = (next: OptionsDraft) => {
    setDraft(next);
    setDirty(true);
  };
  const onSave = async () => {
    const options = optionsFromDraft(draft, integration.options);
    if (!ZSourceOptions.safeParse(options).success) return;
    try {
      const saved = await update.mutateAsync({ id: integration._id, body: { options } });
      setDraft(draftFromOptions(saved.options));
      setDirty(false);
      void message.success(tc('saved'));
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };
  const onReset = () => {
    setDraft(draftFromOptions(integration.options));
    setDirty(false);
  };

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} xl={14}>
        <Card
          title={t('mapping.title')}
          extra={
            <div className="lr-actions">
              <Button onClick={onReset} disabled={!dirty}>
                {t('mapping.reset')}
              </Button>
              <PermissionGuard>
                <Button type="primary" onClick={onSave} disabled={!dirty || !errors.valid} loading={update.isPending}>
                  {tc('save')}
                </Button>
              </PermissionGuard>
            </div>
          }
        >
          <MappingEditor draft={draft} errors={errors} paths={paths} onChange={onChange} />
        </Card>
      </Col>
      <Col xs={24} xl={10}>
        <Card title={t('preview.title')} className="lr-sticky-card">
          <MappingPreview sample={sample} onSampleChange={onSampleChange} preview={preview} />
          {integration.kind === 'source' && (
            <>
              {dirty && <p className="lr-hint lr-warning-text">{t('testLead.unsaved')}</p>}
              {testLead ?? <TestLead integration={integration} sample={sample} />}
            </>
          )}
        </Card>
      </Col>
      {withHooks && (
        <Col xs={24}>
          <Card title={t('hooks.title')}>
            <HooksTable integrationId={integration._id} compact pageSize={5} />
          </Card>
        </Col>
      )}
    </Row>
  );
}
