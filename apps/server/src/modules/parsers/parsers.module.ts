// The e-mail parsers as the app wires them: one ParserRuntime (app.parsers) for the SMTP listener
// where the API is served, the mailbox poll among the periodic tasks, and the routes.
import { defineModule, type ModuleContext } from '../server-module';
import { parsersRoutes } from './parsers.routes';
import { ParserRuntime } from './parsers.runtime';
import { parsersSettings } from './parsers.settings';
import { DEFAULT_PARSERS_CONFIG, type ParsersConfig } from './parsers-deps';

declare module 'fastify' {
  interface FastifyInstance {
    /** E-mail parsers: the SMTP listener, the mailbox poll, processing of stored mails (tests drive it). */
    parsers: ParserRuntime;
  }
}

export interface ParsersOptions {
  /** E-mail parsers: the SMTP listener (off unless given), MAIL_DOMAIN (default: PUBLIC_URL's host), limits, poll. */
  parsers?: Partial<ParsersConfig>;
}

export const parsersModule = defineModule({
  name: 'parsers',
  settings: parsersSettings,
  setup: ({ app, deps, options }: ModuleContext<ParsersOptions>) => {
    const mailDomain = new URL(deps.config.publicUrl).hostname;
    const runtime = new ParserRuntime({
      ...deps,
      parsers: { ...DEFAULT_PARSERS_CONFIG, mailDomain, ...options.parsers },
    });
    app.decorate('parsers', runtime);
    return {
      stop: () => runtime.stop(),
      tasks: runtime.tasks(),
      routes: [(child) => parsersRoutes(child, { runtime })],
      // Inbound mail is taken where webhooks are (ROLE api or all): docs/parsers.md.
      onApiReady: () => runtime.startSmtp(),
    };
  },
});
