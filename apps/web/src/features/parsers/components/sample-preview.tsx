import type { ParserPreview } from '@leadrelay/shared';
import { Alert, Descriptions, Empty, Input, Spin, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { LeadFieldName } from '../../../components/lead-field-name';
import { errorMessage } from '../../../lib/errors';
import { useReasonText } from './mail-status';

interface Props {
  sample: string;
  onSampleChange: (text: string) => void;
  preview: ParserPreview | undefined;
  loading: boolean;
  error: unknown;
  /** A found label clicked: add a field rule by it. */
  onPickLabel: (label: string) => void;
  /** A received mail is the sample: no text to edit. */
  hideInput?: boolean;
}

/** The sample mail and, beside it, what it becomes under the rules being edited. */
export function SamplePreview({ sample, onSampleChange, preview, loading, error, onPickLabel, hideInput }: Props) {
  const { t } = useTranslation('parsers');
  const reasonText = useReasonText();
  const fields = Object.entries(preview?.fields ?? {});
  return (
    <div className="lr-parser-sample">
      {!hideInput && (
        <Typography.Paragraph type="secondary" className="lr-hint">
          {t('sample.hint')}
        </Typography.Paragraph>
      )}
      <Input.TextArea
        hidden={hideInput}
        value={sample}
        onChange={(e) => onSampleChange(e.target.value)}
        placeholder={t('sample.placeholder')}
        autoSize={{ minRows: 6, maxRows: 14 }}
        className="lr-mono"
        aria-label={t('sample.title')}
        maxLength={200_000}
      />
      <Typography.Title level={5} className="lr-parser-result-title">
        {t('sample.result')} {loading && <Spin size="small" />}
      </Typography.Title>
      {!sample.trim() ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('sample.empty')} />
      ) : error ? (
        <Alert type="error" showIcon title={errorMessage(error)} />
      ) : preview ? (
        <div data-testid="parser-preview">
          {(preview.from || preview.subject) && (
            <Descriptions size="small" column={1} className="lr-mb">
              {preview.from && <Descriptions.Item label={t('sample.from')}>{preview.from}</Descriptions.Item>}
              {preview.subject && <Descriptions.Item label={t('sample.subject')}>{preview.subject}</Descriptions.Item>}
            </Descriptions>
          )}
          <Alert
            className="lr-mb"
            type={preview.matched && !preview.reason ? 'success' : 'warning'}
            showIcon
            title={preview.matched ? t('sample.matched') : t('sample.notMatched')}
            description={preview.reason ? reasonText(preview.reason) : undefined}
          />
          <Typography.Text strong>{t('sample.fields')}</Typography.Text>
          {fields.length ? (
            <Descriptions size="small" column={1} bordered className="lr-mb lr-parser-fields">
              {fields.map(([key, value]) => (
                <Descriptions.Item key={key} label={<LeadFieldName field={key} />}>
                  {/* What the mail said: data, not words of the page. */}
                  <span translate="no">{value}</span>
                </Descriptions.Item>
              ))}
            </Descriptions>
          ) : (
            <Typography.Paragraph type="secondary">{t('sample.noFields')}</Typography.Paragraph>
          )}
          {preview.pairs.length > 0 && (
            <>
              <Typography.Text strong>{t('sample.pairs')}</Typography.Text>
              <Typography.Paragraph type="secondary" className="lr-hint">
                {t('sample.pairsHint')}
              </Typography.Paragraph>
              <div className="lr-parser-pairs">
                {preview.pairs.map((pair) => (
                  <Tag.CheckableTag
                    key={`${pair.label}:${pair.value}`}
                    checked={false}
                    onChange={() => onPickLabel(pair.label)}
                  >
                    <span className="lr-parser-pair-label">{pair.label}:</span> {pair.value}
                  </Tag.CheckableTag>
                ))}
              </div>
            </>
          )}
        </div>
      ) : null}
    </div>
  );
}
