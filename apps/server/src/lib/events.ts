import { EventEmitter } from 'node:events';

/** In-process events; the real-time channel, integration health and the delivery worker listen to them. */
export interface EngineEvents {
  /** A hook was created, changed status or was removed. */
  'hook.changed': [{ accountId: string; hookId: string }];
  /** A source answered a lead (metrics): accepted, held, filtered, duplicate... */
  'lead.received': [{ status: string }];
  /** One delivery attempt finished (metrics): its outcome, the attempt's number, the lead's receipt. */
  'delivery.attempted': [
    { destinationType: string; outcome: string; attempt: number; receivedAt: Date; finishedAt: Date },
  ];
  /** Deliveries became due now: the worker claims at once instead of waiting for its poll. */
  'deliveries.due': [];
  /** Conversion events were made (a delivered lead, a CRM stage): the sender sends at once instead of waiting for its poll. */
  'conversions.due': [];
  /** Events a connection's service sent were stored: the processor fetches and ingests their items at once. */
  'connections.inbound': [];
  /** A destination kept failing and is paused until the time given (circuit breaker). */
  'destination.paused': [{ destinationId: string; accountId: string; pausedUntil: Date; reason: string }];
  'destination.recovered': [{ destinationId: string; accountId: string }];
  /** The destination refused our credentials (revoked or invalid auth): the user must reconnect it. */
  'destination.broken': [{ destinationId: string; accountId: string; reason: string }];
  /**
   * An integration's connection was stored, replaced or removed (connect, reconnect, disconnect, by
   * any of the ways in): the account's browsers hear it as UPDATE_INTEGRATION.
   */
  'integration.connection': [{ integrationId: string; accountId: string }];
}

export class EngineEventBus extends EventEmitter<EngineEvents> {}

export const createEventBus = () => new EngineEventBus().setMaxListeners(100);
