// The embedded customer-support chat (spec 1, 3 "Support widget settings"): the web app asks where
// the third-party script is; null when the operator set none, and then no chat is loaded.
import { ZSupportChat } from '@leadrelay/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { SupportChatConfig } from '../../config';

export async function supportChatRoutes(app: FastifyInstance, options: { chat: SupportChatConfig | null }) {
  const chat = options.chat;
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/support-chat',
    {
      config: { access: 'public' },
      schema: { tags: ['support'], summary: 'Support chat settings (null: none)', response: { 200: ZSupportChat } },
    },
    async () => chat,
  );
}
