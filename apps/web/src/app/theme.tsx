import type { Locale } from '@leadrelay/shared';
import { ConfigProvider, type ThemeConfig } from 'antd';
// The ES modules: the CommonJS ones ('antd/locale/uk_UA') arrive in the build wrapped with a
// `default`, which ConfigProvider then reads instead of our object, dropping what we add to it.
import enUS from 'antd/es/locale/en_US';
import ukUA from 'antd/es/locale/uk_UA';
import { type ReactNode, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { screenTokens } from '../lib/breakpoints';
import { useMediaQuery } from '../lib/use-media-query';
import { DeferredApp } from './deferred-app';

export const PRIMARY = '#4f46e5';

/** The class that carries the theme's CSS variables (antd's default is an id per provider). */
export const THEME_CSS_VAR_KEY = 'lr-theme';

export const theme: ThemeConfig = {
  cssVar: { key: THEME_CSS_VAR_KEY },
  token: {
    colorPrimary: PRIMARY,
    colorLink: PRIMARY,
    borderRadius: 8,
    fontFamily: "Inter, system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif",
    colorBgLayout: '#f5f6fa',
    // antd's greys (45 % black) fall short of WCAG AA contrast on the page background (axe,
    // issue 17 part 9): secondary, tertiary and placeholder text and the danger red are darker.
    colorTextSecondary: 'rgba(0, 0, 0, 0.65)',
    colorTextTertiary: 'rgba(0, 0, 0, 0.6)',
    colorTextDescription: 'rgba(0, 0, 0, 0.6)',
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.55)',
    colorError: '#cf1322',
    // The spec's breakpoints for antd's grid, Layout and responsive props (lib/breakpoints.ts).
    ...screenTokens,
  },
  components: {
    Layout: { siderBg: '#111827', headerBg: '#ffffff', headerPadding: '0 24px', triggerBg: '#0b1220' },
    Menu: { darkItemBg: '#111827', darkSubMenuItemBg: '#111827', darkItemSelectedBg: PRIMARY },
  },
};

/** `inline`: the wrapper takes no box of its own (a page themed inside a plain layout keeps its place in it). */
export function AppTheme({
  locale,
  inline = false,
  children,
}: {
  locale: Locale;
  inline?: boolean;
  children: ReactNode;
}) {
  // Whoever asks the system for less motion gets none from antd: no zoom, slide, fade or collapse.
  // This also means no element waits for an animation's end before it is removed (a loading icon
  // kept, collapsed but still read out as "loading", when its transition end never came).
  const reduced = useMediaQuery('(prefers-reduced-motion: reduce)');
  // antd's uk_UA leaves the page-size selector's name in English ("Page Size"): ours, in the language.
  const { t } = useTranslation('common');
  const antdLocale = useMemo(() => {
    const base = locale === 'uk' ? ukUA : enUS;
    return { ...base, Pagination: { ...base.Pagination, page_size: t('pageSize') } };
  }, [locale, t]);
  const themed = useMemo<ThemeConfig>(
    () => (reduced ? { ...theme, token: { ...theme.token, motion: false } } : theme),
    [reduced],
  );
  return (
    <ConfigProvider locale={antdLocale} theme={themed}>
      <DeferredApp className={inline ? `${THEME_CSS_VAR_KEY} lr-theme-inline` : THEME_CSS_VAR_KEY}>
        {children}
      </DeferredApp>
    </ConfigProvider>
  );
}
