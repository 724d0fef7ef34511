import { PlusOutlined } from '@ant-design/icons';
import { TRANSLATIONS_PAGE_SIZE } from '@leadrelay/shared';
import { Button, Card, Checkbox, Empty, Input, Pagination, Select, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ServerError } from '../../../components/server-error';
import { NAMESPACES } from '../../../lib/i18n';
import { currentLocale } from '../../../lib/locale';
import { AddLanguageModal } from '../components/add-language-modal';
import { TranslationEntryEditor } from '../components/translation-entry';
import { useLanguagesQuery, useTranslationsQuery } from '../queries';
import '../translations.css';

/**
 * /admin/super/language and /admin/language: the interface strings of a language beside the
 * English source, 30 a page; search by key or text, untranslated only, plural forms together. A
 * saved string reaches every browser at its next load (docs/translations.md).
 */
export function LanguagePage() {
  const { t } = useTranslation('translations');
  const languages = useLanguagesQuery();
  const [locale, setLocale] = useState<string>(currentLocale());
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState<string>();
  const [namespace, setNamespace] = useState<string>();
  const [untranslated, setUntranslated] = useState(false);
  const [adding, setAdding] = useState(false);
  const query = useTranslationsQuery(locale, {
    page,
    limit: TRANSLATIONS_PAGE_SIZE,
    search,
    namespace,
    untranslated: untranslated ? 'true' : undefined,
  });
  const reset =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setPage(1);
    };
  const data = query.data?.data ?? [];
  const total = query.data?.total ?? 0;

  return (
    <div className="lr-page">
      <Typography.Title level={2} className="lr-page-title">
        {t('title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('subtitle')}</Typography.Paragraph>
      <Card>
        <div className="lr-translations-toolbar">
          <Select
            aria-label={t('language')}
            value={locale}
            loading={languages.isPending}
            onChange={reset(setLocale)}
            options={(languages.data?.data ?? []).map((l) => ({ value: l.code, label: `${l.name} (${l.code})` }))}
            className="lr-translations-language"
          />
          <Input.Search
            allowClear
            placeholder={t('search')}
            aria-label={t('search')}
            onSearch={(v) => reset(setSearch)(v.trim() || undefined)}
            className="lr-translations-search"
          />
          <Select<string>
            aria-label={t('namespace')}
            value={namespace ?? 'all'}
            onChange={(v) => reset(setNamespace)(v === 'all' ? undefined : v)}
            options={[
              { value: 'all', label: t('allNamespaces') },
              ...NAMESPACES.map((ns) => ({ value: ns, label: ns })),
            ]}
            className="lr-translations-namespace"
          />
          <Checkbox checked={untranslated} onChange={(e) => reset(setUntranslated)(e.target.checked)}>
            {t('untranslated')}
          </Checkbox>
          <Button icon={<PlusOutlined aria-hidden />} onClick={() => setAdding(true)} className="lr-translations-add">
            {t('add.button')}
          </Button>
        </div>
        {query.isError && <ServerError error={query.error} />}
        <div className="lr-translations-head">
          <Typography.Text type="secondary">{t('source')}</Typography.Text>
          <Typography.Text type="secondary">{t('translation')}</Typography.Text>
        </div>
        {query.isPending ? (
          <Spin />
        ) : data.length === 0 ? (
          <Empty description={t('empty')} />
        ) : (
          data.map((entry) => (
            <TranslationEntryEditor
              // A fresh editor when the saved text changes, so its fields show what is stored.
              key={`${locale}:${entry.namespace}.${entry.key}:${entry.forms.map((f) => f.value ?? '').join('|')}`}
              entry={entry}
              locale={locale}
            />
          ))
        )}
        <div className="lr-translations-footer">
          <Typography.Text type="secondary">{t('total', { count: total })}</Typography.Text>
          {total > TRANSLATIONS_PAGE_SIZE && (
            <Pagination
              size="small"
              current={page}
              pageSize={TRANSLATIONS_PAGE_SIZE}
              total={total}
              showSizeChanger={false}
              onChange={setPage}
            />
          )}
        </div>
      </Card>
      <AddLanguageModal
        open={adding}
        onClose={() => setAdding(false)}
        onAdded={(code) => {
          setAdding(false);
          setLocale(code);
          setPage(1);
        }}
      />
    </div>
  );
}
