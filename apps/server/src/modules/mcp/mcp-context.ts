// Who calls the MCP tools and with what (issue 34 part 2). The principal has the shape of the API
// keys' ApiKeyPrincipal (modules/api-keys, part 1), so their authenticateApiKey can be handed in as is.
import type { Locale } from '@leadrelay/shared';
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../config';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../integrations';

export interface McpPrincipal {
  keyId: string;
  keyName: string;
  /** 'read' keys may call every tool that only reads; 'write' keys the others too. */
  scope: 'read' | 'write';
  accountId: string;
  actor: Actor;
}

/** Tells who a request to /mcp comes from, or null (no, a wrong, a revoked key). */
export type McpAuthenticate = (request: FastifyRequest) => Promise<McpPrincipal | null>;

/** The key of `Authorization: Bearer <key>`, or null. */
export function bearerOf(request: FastifyRequest): string | null {
  const match = /^Bearer +(\S+)$/i.exec(request.headers.authorization ?? '');
  return match?.[1] ?? null;
}

export interface McpContext {
  /** The app's (app.deps). */
  deps: Deps;
  principal: McpPrincipal;
  /** The account's language: the tools' descriptions and the words in their answers. */
  locale: Locale;
  /** The account's login, for the audit log's entries of what a key changed. */
  login: string;
  /** Where the call came from, for the audit log (absent in-process). */
  origin?: { ip: string | null; userAgent: string | null };
}

/** A refusal whose own sentence, in the account's language, says more than its key's (which delivery may be resent). */
export class McpRefusal extends AppError {
  constructor(code: 'OPERATION_NOT_SUPPORTED', words: string) {
    super(code, { message: words });
  }
}
