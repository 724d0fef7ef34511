// The connector contract (house style: "a connector is one folder and one typed object").
// The delivery engine in apps/server calls only what is declared here.
import type { Assignee, Lead } from '@leadrelay/shared';
import type { z } from 'zod';

export interface ConnectorLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

/** What a connector gets for one call. It never reads env and never builds its own HTTP stack. */
export interface ConnectorContext<Auth, Settings> {
  auth: Auth;
  settings: Settings;
  /** Base URL of the external API, from configuration (our emulators in tests and demos). */
  baseUrl?: string;
  /** SSRF-safe fetch for user-supplied URLs; the only way a connector talks HTTP. */
  fetch: typeof fetch;
  logger: ConnectorLogger;
  signal: AbortSignal;
}

export interface DeliveryInput {
  lead: Lead;
  /** Stable per (lead, destination): a retry sends the same key, so a destination that can tell makes one record. */
  idempotencyKey: string;
  assignee?: Assignee;
  /** The source's raw payload, for notes. */
  raw?: unknown;
}

/** What the engine stores of an attempt (already redacted by the connector). */
export interface AttemptTrace {
  request?: { method: string; url: string; headers?: Record<string, string>; body?: unknown };
  response?: { status: number; headers?: Record<string, string>; body?: unknown };
}

export interface DeliveryResult extends AttemptTrace {
  /** The record's id at the destination, when it tells. */
  externalId?: string;
}

export interface FieldOption {
  key: string;
  label: string;
  type?: string;
  options?: { value: string; label: string }[];
}

export interface ConnectorDefinition<Auth = unknown, Settings = unknown> {
  slug: string;
  kind: 'source' | 'destination';
  auth: z.ZodType<Auth>;
  settings: z.ZodType<Settings>;
  /** Field and user lists for the integration screens ({type}/fields, {type}/users). */
  loaders?: {
    fields?: (ctx: ConnectorContext<Auth, Settings>) => Promise<FieldOption[]>;
    users?: (ctx: ConnectorContext<Auth, Settings>) => Promise<{ id: string; name: string }[]>;
  };
  testConnection?: (ctx: ConnectorContext<Auth, Settings>) => Promise<void>;
  /** Throws RetryableError or PermanentError (kit/errors.ts); anything else counts as retryable. */
  deliver?: (ctx: ConnectorContext<Auth, Settings>, input: DeliveryInput) => Promise<DeliveryResult>;
}
