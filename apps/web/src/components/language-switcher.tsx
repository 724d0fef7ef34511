import { LOCALES, type Locale } from '@leadrelay/shared';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { api } from '../lib/http';
import { localeFromPath, switchLanguage } from '../lib/locale';
import { chooseExtraLanguage, chosenExtraLanguage } from '../lib/ui-language';
import './plain/plain.css';

interface PublicLocale {
  code: string;
  iso: string;
  name: string;
  dir: string;
}

/** Languages the operator added (GET /api/i18n/locales), beside the shipped uk and en. */
function useAddedLanguages(): PublicLocale[] {
  const { data } = useQuery({
    queryKey: ['i18n', 'locales'],
    queryFn: () => api.get<PublicLocale[]>('/api/i18n/locales'),
    staleTime: 10 * 60_000,
  });
  return (data ?? []).filter((l) => !(LOCALES as readonly string[]).includes(l.code));
}

/**
 * Saves the language (cookies) and reloads the same page in its prefix. An added language shows on
 * the English prefix (docs/translations.md).
 */
export function LanguageSwitcher({ size = 'middle' }: { size?: 'small' | 'middle' }) {
  const { t } = useTranslation();
  const location = useLocation();
  const locale = localeFromPath(location.pathname);
  const added = useAddedLanguages();
  const extra = locale === 'en' ? chosenExtraLanguage() : undefined;
  const current = extra && added.some((l) => l.code === extra) ? extra : locale;
  const choose = (code: string) => {
    if (code === current) return;
    if ((LOCALES as readonly string[]).includes(code)) {
      chooseExtraLanguage(undefined);
      if (code === locale) window.location.reload();
      else switchLanguage(code as Locale);
      return;
    }
    chooseExtraLanguage(code);
    if (locale === 'en') window.location.reload();
    else switchLanguage('en');
  };
  const options = [
    ...LOCALES.map((l) => ({
      value: l as string,
      label: t(`language.short_${l}`),
      title: t(`language.${l}`),
      lang: l as string,
    })),
    ...added.map((l) => ({ value: l.code, label: l.code.toUpperCase(), title: l.name, lang: l.iso })),
  ];
  // Plain markup, not antd's Segmented: the switch is on /signin, which shows before antd loads.
  const name = useId();
  return (
    <div role="radiogroup" aria-label={t('language.label')} className={`lr-seg lr-seg-${size}`}>
      {options.map((o) => (
        // A language is named in itself («Українська» on an English page too): the label says which language that is.
        <label key={o.value} title={o.title} lang={o.lang} className="lr-seg-option" data-checked={o.value === current}>
          <input
            type="radio"
            className="lr-seg-input"
            name={name}
            value={o.value}
            checked={o.value === current}
            onChange={() => choose(o.value)}
          />
          {o.label}
        </label>
      ))}
    </div>
  );
}
