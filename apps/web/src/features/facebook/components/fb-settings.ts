import type { FacebookSettings, Integration } from '@leadrelay/shared';

/** The facebook settings of an integration, empty strings where missing (an old or half-made row). */
export function fbSettingsOf(integration: Pick<Integration, 'settings'>): FacebookSettings {
  const s = integration.settings as Partial<Record<keyof FacebookSettings, unknown>>;
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  return { fbConnectionId: str(s.fbConnectionId), fbPageId: str(s.fbPageId), fbFormId: str(s.fbFormId) };
}
