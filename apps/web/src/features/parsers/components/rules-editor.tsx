import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { PARSER_PATTERN_MAX, type ParserRule, type ParserRules } from '@leadrelay/shared';
import { AutoComplete, Button, Checkbox, Empty, Form, Input, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { LeadFieldName } from '../../../components/lead-field-name';

// Lead fields the words table names (common:leadFields), so a chosen one shows by its name.
const FIELD_SUGGESTIONS = [
  'name',
  'phone',
  'email',
  'comment',
  'order_id',
  'total',
  'product',
  'delivery',
  'payment',
  'address',
  'city',
  'utm_source',
];

interface Props {
  value: ParserRules;
  /** Field problems by path (fields.0.pattern → its key). */
  errors: Record<string, string>;
  onChange: (next: ParserRules) => void;
}

/** Which mails a parser takes, and the fields it reads out of them. */
export function RulesEditor({ value, errors, onChange }: Props) {
  const { t } = useTranslation('parsers');
  const { t: te } = useTranslation('errors');
  const setMatch = (key: 'from' | 'subject' | 'phrase', text: string) =>
    onChange({ ...value, match: { ...value.match, [key]: text || undefined } });
  const setRule = (index: number, rule: ParserRule) =>
    onChange({ ...value, fields: value.fields.map((r, i) => (i === index ? rule : r)) });
  const removeRule = (index: number) => onChange({ ...value, fields: value.fields.filter((_, i) => i !== index) });
  const addRule = () => onChange({ ...value, fields: [...value.fields, { kind: 'label', field: '', label: '' }] });
  const errorOf = (path: string) => (errors[path] ? te(errors[path] as 'REQUIRED') : undefined);

  return (
    <Form layout="vertical" requiredMark={false} component="div">
      <Typography.Title level={5}>{t('rules.title')}</Typography.Title>
      <Typography.Paragraph type="secondary" className="lr-hint">
        {t('rules.hint')}
      </Typography.Paragraph>
      <div className="lr-parser-match">
        {(['from', 'subject', 'phrase'] as const).map((key) => (
          <Form.Item
            key={key}
            label={t(`rules.${key}`)}
            validateStatus={errorOf(`match.${key}`) ? 'error' : undefined}
            help={errorOf(`match.${key}`)}
          >
            <Input
              value={value.match[key] ?? ''}
              placeholder={t(`rules.${key}Placeholder`)}
              maxLength={PARSER_PATTERN_MAX}
              onChange={(e) => setMatch(key, e.target.value)}
              aria-label={t(`rules.${key}`)}
            />
          </Form.Item>
        ))}
      </div>
      <Typography.Title level={5}>{t('rules.fieldsTitle')}</Typography.Title>
      <Typography.Paragraph type="secondary" className="lr-hint">
        {t('rules.fieldsHint')}
      </Typography.Paragraph>
      <Checkbox checked={value.auto} onChange={(e) => onChange({ ...value, auto: e.target.checked })} className="lr-mb">
        {t('rules.auto')}
      </Checkbox>
      {value.fields.length === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('rules.noFields')} />}
      {value.fields.map((rule, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rules have no id; their order is their identity
        <div className="lr-parser-rule" key={index} data-testid="parser-rule">
          <Form.Item
            label={t('rules.field')}
            validateStatus={errorOf(`fields.${index}.field`) ? 'error' : undefined}
            help={errorOf(`fields.${index}.field`)}
          >
            <AutoComplete
              value={rule.field}
              options={FIELD_SUGGESTIONS.map((f) => ({ value: f }))}
              // The field is typed as its key; the suggestions say what each key is.
              optionRender={(option) => <LeadFieldName field={String(option.value)} />}
              onChange={(field: string) => setRule(index, { ...rule, field })}
              aria-label={t('rules.field')}
            />
          </Form.Item>
          <Form.Item label={t('rules.kind')}>
            <Select
              value={rule.kind}
              aria-label={t('rules.kind')}
              options={(['label', 'regex'] as const).map((k) => ({ value: k, label: t(`rules.kinds.${k}`) }))}
              onChange={(kind: 'label' | 'regex') =>
                setRule(
                  index,
                  kind === 'label'
                    ? { kind, field: rule.field, label: rule.kind === 'label' ? rule.label : '' }
                    : { kind, field: rule.field, pattern: rule.kind === 'regex' ? rule.pattern : '', source: 'body' },
                )
              }
            />
          </Form.Item>
          {rule.kind === 'label' ? (
            <Form.Item
              label={t('rules.label')}
              className="lr-parser-rule-main"
              validateStatus={errorOf(`fields.${index}.label`) ? 'error' : undefined}
              help={errorOf(`fields.${index}.label`)}
            >
              <Input
                value={rule.label}
                maxLength={PARSER_PATTERN_MAX}
                onChange={(e) => setRule(index, { ...rule, label: e.target.value })}
                aria-label={t('rules.label')}
              />
            </Form.Item>
          ) : (
            <>
              <Form.Item
                label={t('rules.pattern')}
                className="lr-parser-rule-main"
                validateStatus={errorOf(`fields.${index}.pattern`) ? 'error' : undefined}
                help={errorOf(`fields.${index}.pattern`)}
              >
                <Input
                  value={rule.pattern}
                  maxLength={PARSER_PATTERN_MAX}
                  className="lr-mono"
                  onChange={(e) => setRule(index, { ...rule, pattern: e.target.value })}
                  aria-label={t('rules.pattern')}
                />
              </Form.Item>
              <Form.Item label={t('rules.source')}>
                <Select
                  value={rule.source}
                  aria-label={t('rules.source')}
                  options={(['body', 'subject', 'any'] as const).map((s) => ({
                    value: s,
                    label: t(`rules.sources.${s}`),
                  }))}
                  onChange={(source: 'body' | 'subject' | 'any') => setRule(index, { ...rule, source })}
                />
              </Form.Item>
            </>
          )}
          <Button
            type="text"
            danger
            icon={<DeleteOutlined aria-hidden />}
            aria-label={t('rules.remove')}
            title={t('rules.remove')}
            onClick={() => removeRule(index)}
            className="lr-parser-rule-remove"
          />
        </div>
      ))}
      <Button icon={<PlusOutlined aria-hidden />} onClick={addRule}>
        {t('rules.add')}
      </Button>
    </Form>
  );
}
