import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { i18n } from '../../lib/i18n';

/** A connector's word by its key in the connector's words (connectors:<slug>.<key>). */
export type Say = (key: string, options?: Record<string, unknown>) => string;

export function useConnectorWords(slug: string): Say {
  const { t } = useTranslation('connectors');
  return useCallback((key, options) => String(t(`${slug}.${key}` as never, options as never)), [t, slug]);
}

/** A value's word in a group of the connector's words (`validation.NAME_RESERVED`), or null when it has none. */
export function valueWord(slug: string, group: string, value: string): string | null {
  const key = `connectors:${slug}.${group}.${value}`;
  return i18n.exists(key) ? String(i18n.t(key as never)) : null;
}
