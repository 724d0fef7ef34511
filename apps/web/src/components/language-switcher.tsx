import { LOCALES, type Locale } from '@leadrelay/shared';
import { Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { localeFromPath, switchLanguage } from '../lib/locale';

/** Saves the language (cookies) and reloads the same page in the other prefix. */
export function LanguageSwitcher({ size = 'middle' }: { size?: 'small' | 'middle' }) {
  const { t } = useTranslation();
  const current = localeFromPath(useLocation().pathname);
  return (
    <Segmented<Locale>
      size={size}
      aria-label={t('language.label')}
      value={current}
      options={LOCALES.map((l) => ({ value: l, label: t(`language.short_${l}`), title: t(`language.${l}`) }))}
      onChange={(l) => l !== current && switchLanguage(l)}
    />
  );
}
