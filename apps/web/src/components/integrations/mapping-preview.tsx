import { Alert, Descriptions, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { LeadFieldName } from '../lead-field-name';
import { leadRows, type Preview } from './mapping-draft';

interface Props {
  sample: string;
  onSampleChange: (text: string) => void;
  /** Null while the sample is not a JSON object. */
  preview: Preview | null;
}

/** An editable sample payload and the lead it becomes, recomputed as the user types. */
export function MappingPreview({ sample, onSampleChange, preview }: Props) {
  const { t } = useTranslation('integrations');
  const { t: tOps } = useTranslation('integrations', { keyPrefix: 'ops' });
  const rows = preview ? leadRows(preview.lead) : [];
  // The four contact fields by name; UTM and custom fields also show the path a rule or filter uses.
  const label = (key: string) => <LeadFieldName field={key} showKey={key.includes('.')} />;

  return (
    <div className="lr-preview" data-testid="mapping-preview">
      <Typography.Text strong>{t('preview.sample')}</Typography.Text>
      <Input.TextArea
        value={sample}
        onChange={(e) => onSampleChange(e.target.value)}
        autoSize={{ minRows: 8, maxRows: 18 }}
        spellCheck={false}
        className="lr-mono"
        aria-label={t('preview.sample')}
        status={preview ? undefined : 'error'}
      />
      {!preview && <Typography.Text type="danger">{t('preview.badJson')}</Typography.Text>}
      {preview && (
        <>
          <Typography.Text strong className="lr-preview-title">
            {t('preview.result')}
          </Typography.Text>
          {rows.length === 0 ? (
            <Typography.Paragraph type="secondary">{t('preview.emptyLead')}</Typography.Paragraph>
          ) : (
            <Descriptions column={1} size="small" bordered className="lr-preview-lead">
              {rows.map(([key, value]) => (
                <Descriptions.Item key={key} label={label(key)}>
                  {/* The sender's value, as it came: data, not words of the page. */}
                  <span data-field={key} translate="no">
                    {value}
                  </span>
                </Descriptions.Item>
              ))}
            </Descriptions>
          )}
          {preview.skippedRules > 0 && (
            <Typography.Paragraph type="warning" className="lr-hint">
              {t('preview.skipped', { count: preview.skippedRules })}
            </Typography.Paragraph>
          )}
          {preview.warnings.includes('NO_CONTACT') && (
            <Alert
              type="warning"
              showIcon
              className="lr-preview-warning"
              data-testid="preview-no-contact"
              title={t('preview.noContact')}
            />
          )}
          {preview.dropped ? (
            <Alert
              type="warning"
              showIcon
              role="status"
              title={t('preview.dropped', {
                reason: t('preview.reason', {
                  field: preview.dropped.filter.field,
                  op: `${preview.dropped.filter.negate ? `${t('filters.negate')} ` : ''}${tOps(preview.dropped.filter.op)}`,
                  value: preview.dropped.filter.value !== undefined ? ` «${preview.dropped.filter.value}»` : '',
                }),
              })}
            />
          ) : (
            <Alert type="success" showIcon role="status" title={t('preview.kept')} />
          )}
        </>
      )}
    </div>
  );
}
