// PostgreSQL as the bus between processes (API nodes and workers): the socket.io adapter's pool,
// and NOTIFY/LISTEN on `leadrelay_deliveries` so a worker claims new deliveries at once instead
// of at its next poll. Within one process the in-process event bus carries the same signals.
import pg from 'pg';

export const DELIVERIES_CHANNEL = 'leadrelay_deliveries';

interface BusLog {
  warn(obj: object, msg: string): void;
}

/** A small pool for the bus, apart from the data pool: the adapter holds one client for LISTEN. */
export function createBusPool(databaseUrl: string, log: BusLog): pg.Pool {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  // A dropped connection must not end the process: the pool replaces idle clients, the adapter
  // reconnects its listening client on 'end'.
  pool.on('error', (error) => log.warn({ err: error }, 'bus connection lost'));
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

/** The bus pool as the socket.io adapter sees it, with `close()` for after the adapter's own close. */
export interface AdapterPool {
  pool: pg.Pool;
  close(): void;
}

/**
 * The adapter takes its listening client asynchronously (connect, then LISTEN, then it keeps it).
 * Closed while that is under way, it never releases the client it gets afterwards, and the bus
 * pool's end() then waits for ever (seen as a test app that would not close under load). This view
 * hands it nothing once closed, and `close()` destroys a client it still holds.
 */
export function adapterPool(pool: pg.Pool): AdapterPool {
  let closed = false;
  let held: pg.PoolClient | undefined;
  const never = () => new Promise<never>(() => {});
  const view = Object.create(pool) as pg.Pool;
  view.query = pool.query.bind(pool) as pg.Pool['query'];
  view.connect = (async () => {
    if (closed) return never();
    const client = await pool.connect();
    if (closed) {
      client.release(true);
      return never();
    }
    const release = client.release.bind(client);
    let released = false;
    client.release = (destroy?: boolean | Error) => {
      if (released) return;
      released = true;
      held = undefined;
      release(destroy);
    };
    held = client;
    return client;
  }) as pg.Pool['connect'];
  return {
    pool: view,
    close() {
      closed = true;
      held?.release(true);
    },
  };
}

/**
 * NOTIFY leadrelay_deliveries, at most once per `intervalMs`: calls in between fold into one
 * trailing NOTIFY, so a burst of leads costs a handful of notifications and none is lost. It runs
 * on its own connection after the caller's commit, never inside the ingest transaction.
 */
export class DeliveriesNotifier {
  private timer: NodeJS.Timeout | undefined;
  private pending = false;
  private closed = false;
  private readonly inflight = new Set<Promise<unknown>>();

  constructor(
    private readonly pool: pg.Pool,
    /** Sent as the payload so this process's own listener can tell its echo. */
    private readonly sender: string,
    private readonly log: BusLog,
    private readonly intervalMs = 20,
  ) {}

  readonly notify = (): void => {
    if (this.closed) return;
    if (this.timer) {
      this.pending = true;
      return;
    }
    this.send();
    this.timer = setTimeout(this.flush, this.intervalMs);
  };

  private readonly flush = (): void => {
    this.timer = undefined;
    if (!this.pending) return;
    this.pending = false;
    this.notify();
  };

  private send(): void {
    const sent = this.pool
      .query('select pg_notify($1, $2)', [DELIVERIES_CHANNEL, this.sender])
      .catch((error) => this.log.warn({ err: error }, 'NOTIFY leadrelay_deliveries failed; workers poll'))
      .finally(() => this.inflight.delete(sent));
    this.inflight.add(sent);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await Promise.allSettled([...this.inflight]);
  }
}

/**
 * LISTEN leadrelay_deliveries on a dedicated connection and call `onWake` for every NOTIFY from
 * another process (this process's own ingest reaches its worker through the in-process bus).
 * A lost connection is re-opened with backoff; after every (re)connect `onWake` runs once, since
 * a notification sent while we were away is gone.
 */
export class DeliveriesListener {
  private client: pg.Client | undefined;
  private timer: NodeJS.Timeout | undefined;
  private failures = 0;
  private stopped = true;

  constructor(
    private readonly databaseUrl: string,
    private readonly sender: string,
    private readonly onWake: () => void,
    private readonly log: BusLog,
    private readonly retryMs = 1_000,
  ) {}

  /** Resolves once listening (or after the first failed try, which keeps retrying). */
  start(): Promise<void> {
    if (!this.stopped) return Promise.resolve();
    this.stopped = false;
    return this.connect();
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.databaseUrl });
    this.client = client;
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    client.on('notification', (message) => {
      if (message.channel === DELIVERIES_CHANNEL && message.payload !== this.sender) this.onWake();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${DELIVERIES_CHANNEL}`);
      if (this.client !== client) return;
      this.failures = 0;
      this.onWake();
    } catch (error) {
      this.lost(client, error);
    }
  }

  private lost(client: pg.Client, error?: unknown): void {
    if (this.client !== client || this.stopped) return;
    this.client = undefined;
    client.end().catch(() => {});
    const delay = Math.min(30_000, this.retryMs * 2 ** this.failures);
    this.failures++;
    this.log.warn({ err: error, retryInMs: delay }, 'LISTEN leadrelay_deliveries lost; reconnecting');
    this.timer = setTimeout(() => void this.connect(), delay);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }
}
