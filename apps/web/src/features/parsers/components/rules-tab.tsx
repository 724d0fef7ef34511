import { type Parser, type ParserMail, type ParserRules, ZParserRules } from '@leadrelay/shared';
import { Alert, Button, Card, Col, Row } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PermissionGuard } from '../../../components/permission-guard';
import { errorMessage } from '../../../lib/errors';
import { useUnsavedChanges } from '../../../lib/unsaved-changes';
import { useApp } from '../../../lib/use-app';
import { useConfigParserMutation, useParserPreviewQuery } from '../queries';
import { RulesEditor } from './rules-editor';
import { SamplePreview } from './sample-preview';

/** The value after it stopped changing for `ms` (the preview asks the server once typing pauses). */
function useSettled<T>(value: T, ms = 300): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

function problemsOf(rules: ParserRules): { valid: boolean; errors: Record<string, string> } {
  const parsed = ZParserRules.safeParse(rules);
  if (parsed.success) return { valid: true, errors: {} };
  return {
    valid: false,
    errors: Object.fromEntries(parsed.error.issues.map((i) => [i.path.join('.'), i.message])),
  };
}

/** The rules editor beside the sample and what it yields, live; save keeps the rules, "keep" the sample. */
interface Props {
  parser: Parser;
  sample: string;
  onSampleChange: (s: string) => void;
  /** A received mail picked in the mail log as the sample (instead of the pasted one). */
  sampleMail: ParserMail | null;
  onClearSampleMail: () => void;
}

export function RulesTab({ parser, sample, onSampleChange, sampleMail, onClearSampleMail }: Props) {
  const { t } = useTranslation('parsers');
  const { message } = useApp();
  const config = useConfigParserMutation(parser._id);
  const [draft, setDraft] = useState<ParserRules>(parser.rules);
  const [dirty, setDirty] = useState(false);
  useUnsavedChanges(dirty);
  useEffect(() => {
    if (!dirty) setDraft(parser.rules);
  }, [parser.rules, dirty]);
  const { valid, errors } = useMemo(() => problemsOf(draft), [draft]);
  const settledSample = useSettled(sample);
  const settledRules = useSettled(valid ? draft : null);
  const source = sampleMail ? { mailId: sampleMail._id } : { sample: settledSample };
  const preview = useParserPreviewQuery(parser._id, source, settledRules);

  const change = (next: ParserRules) => {
    setDraft(next);
    setDirty(true);
  };
  const save = async (body: { rules?: ParserRules; sample?: string }, done: string) => {
    try {
      await config.mutateAsync(body);
      if (body.rules) setDirty(false);
      void message.success(done);
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };
  const pickLabel = (label: string) => {
    const field = label
      .toLowerCase()
      .replace(/[^a-z0-9_]+/g, '_')
      .replace(/^_+|_+$/g, '');
    change({ ...draft, fields: [...draft.fields, { kind: 'label', field: field || '', label }] });
  };

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} xl={13}>
        <Card
          title={t('page.tabs.rules')}
          extra={
            <div className="lr-actions">
              <Button
                onClick={() => {
                  setDraft(parser.rules);
                  setDirty(false);
                }}
                disabled={!dirty}
              >
                {t('rules.reset')}
              </Button>
              <PermissionGuard>
                <Button
                  type="primary"
                  disabled={!dirty || !valid}
                  loading={config.isPending}
                  onClick={() => save({ rules: draft }, t('rules.saved'))}
                >
                  {t('rules.save')}
                </Button>
              </PermissionGuard>
            </div>
          }
        >
          <RulesEditor value={draft} errors={errors} onChange={change} />
        </Card>
      </Col>
      <Col xs={24} xl={11}>
        <Card
          title={t('sample.title')}
          className="lr-sticky-card"
          extra={
            <PermissionGuard>
              <Button
                disabled={!!sampleMail || !sample.trim() || sample === parser.sample}
                onClick={() => save({ sample }, t('sample.kept'))}
              >
                {t('sample.keep')}
              </Button>
            </PermissionGuard>
          }
        >
          {sampleMail && (
            <Alert
              className="lr-mb"
              type="info"
              showIcon
              title={t('sample.usingMail', { subject: sampleMail.subject || t('mails.noSubject') })}
              action={
                <Button size="small" onClick={onClearSampleMail}>
                  {t('sample.usePasted')}
                </Button>
              }
            />
          )}
          <SamplePreview
            hideInput={!!sampleMail}
            sample={sampleMail ? sampleMail._id : sample}
            onSampleChange={onSampleChange}
            preview={preview.data}
            loading={preview.isFetching}
            error={preview.error}
            onPickLabel={pickLabel}
          />
        </Card>
      </Col>
    </Row>
  );
}
