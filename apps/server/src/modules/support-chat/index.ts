// The support-chat module's door (issue 29): its descriptor, which app-modules.ts lists, and what other
// modules may use of it. A module imports another only through its index.ts (npm run lint:deps:server);
// what is not here is the module's own.
import type { SupportChatConfig } from '../../config';
import { defineModule, type ModuleContext } from '../server-module';
import { supportChatRoutes } from './support-chat.routes';
import { supportChatSettings } from './support-chat.settings';

export const supportChatModule = defineModule({
  name: 'support-chat',
  settings: supportChatSettings,
  setup: ({ options }: ModuleContext<{ supportChat?: SupportChatConfig | null }>) => ({
    routes: [(app) => supportChatRoutes(app, { chat: options.supportChat ?? null })],
  }),
});
