// The support chat's environment settings (README: SUPPORT_CHAT_*), read by env.ts.
import { z } from 'zod';
import type { SupportChatConfig } from '../../config';
import { blankToUndefined, boolish, defineSettings, optionalText } from '../../lib/env-settings';

export const supportChatSettings = defineSettings({
  keys: {
    SUPPORT_CHAT_SCRIPT_URL: z.preprocess(blankToUndefined, z.url().optional()),
    SUPPORT_CHAT_ORGANIZATION: optionalText,
    SUPPORT_CHAT_LOAD_IMMEDIATELY: boolish,
  },
  read: (
    e,
  ): {
    /** The embedded support chat; null when no script address is set. */ supportChat: SupportChatConfig | null;
  } => ({
    supportChat: e.SUPPORT_CHAT_SCRIPT_URL
      ? {
          scriptUrl: e.SUPPORT_CHAT_SCRIPT_URL,
          organization: e.SUPPORT_CHAT_ORGANIZATION ?? '',
          loadImmediately: e.SUPPORT_CHAT_LOAD_IMMEDIATELY,
        }
      : null,
  }),
});
