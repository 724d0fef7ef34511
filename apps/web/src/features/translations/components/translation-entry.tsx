import type { TranslationEntry } from '@leadrelay/shared';
import { Button, Input, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/errors';
import { useApp } from '../../../lib/use-app';
import { useSaveTranslationMutation } from '../queries';

/**
 * One string: the English source beside the language's text; a plural string shows every form
 * the language needs and saves them together. Emptying a field goes back to the shipped text.
 */
export function TranslationEntryEditor({ entry, locale }: { entry: TranslationEntry; locale: string }) {
  const { t } = useTranslation('translations');
  const { message } = useApp();
  const save = useSaveTranslationMutation();
  const initial = Object.fromEntries(entry.forms.map((f) => [f.key, f.value ?? f.shipped ?? '']));
  const [values, setValues] = useState<Record<string, string>>(initial);
  const dirty = entry.forms.some((f) => values[f.key] !== initial[f.key]);
  const overridden = entry.forms.some((f) => f._id);

  const submit = async (next: Record<string, string>) => {
    try {
      await save.mutateAsync({ locale, namespace: entry.namespace, values: next });
      void message.success(t('saved'));
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };
  // Only what differs from the shipped text is saved; a form set back to it is removed.
  const changes = () =>
    Object.fromEntries(
      entry.forms
        .filter((f) => values[f.key] !== initial[f.key])
        .map((f) => [f.key, values[f.key] === (f.shipped ?? '') ? '' : (values[f.key] ?? '')]),
    );

  return (
    <div className="lr-translation" data-testid={`translation-${entry.namespace}.${entry.key}`}>
      <div className="lr-translation-head">
        <Typography.Text code className="lr-break">
          {entry.namespace}.{entry.key}
        </Typography.Text>
        <Space size={4} wrap>
          {entry.plural && <Tag color="blue">{t('plural')}</Tag>}
          {!entry.translated && <Tag color="orange">{t('untranslatedTag')}</Tag>}
          {overridden && <Tag color="purple">{t('overridden')}</Tag>}
        </Space>
      </div>
      {entry.forms.map((form) => (
        <div className="lr-translation-row" key={form.key}>
          <div className="lr-translation-source">
            {form.category && (
              <Typography.Text type="secondary">
                {t(`categories.${form.category}` as 'categories.other')}:{' '}
              </Typography.Text>
            )}
            <Typography.Text className="lr-break">{form.source}</Typography.Text>
          </div>
          <Input.TextArea
            autoSize={{ minRows: 1, maxRows: 6 }}
            aria-label={`${entry.namespace}.${form.key}`}
            value={values[form.key]}
            placeholder={t('placeholder')}
            onChange={(e) => setValues((v) => ({ ...v, [form.key]: e.target.value }))}
          />
        </div>
      ))}
      <div className="lr-translation-actions">
        {overridden && (
          <Button
            size="small"
            onClick={() => void submit(Object.fromEntries(entry.forms.filter((f) => f._id).map((f) => [f.key, ''])))}
            loading={save.isPending}
          >
            {t('reset')}
          </Button>
        )}
        <Button
          size="small"
          type="primary"
          disabled={!dirty}
          loading={save.isPending}
          onClick={() => void submit(changes())}
        >
          {t('save')}
        </Button>
      </div>
    </div>
  );
}
