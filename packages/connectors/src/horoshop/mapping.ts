// What a Horoshop webhook body holds: its orders. The payload of an order webhook is not documented
// where we looked (docs/connectors/horoshop.md): by assumption it is the order object orders/get
// answers. So every shape a shop might send is read — one order, a list, { orders: [...] },
// { order: {...} }, { data: ... } or orders/get's own envelope — and an order is anything with a
// positive integer order_id. Never throws; junk gives no orders.
import { type HoroshopOrder, horoshopOrderId } from './schema';

/** A body carrying more orders than this is read up to here (a batch is a few; this is a guard). */
export const MAX_ORDERS_PER_BODY = 500;
const MAX_DEPTH = 3;

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

function collect(value: unknown, depth: number, out: Map<string, HoroshopOrder>): void {
  if (out.size >= MAX_ORDERS_PER_BODY || depth > MAX_DEPTH) return;
  if (Array.isArray(value)) {
    for (const item of value.slice(0, MAX_ORDERS_PER_BODY)) collect(item, depth + 1, out);
    return;
  }
  if (!isRecord(value)) return;
  const id = horoshopOrderId(value.order_id);
  if (id) {
    // A repeated order inside one body counts once (the first as sent).
    if (!out.has(id)) out.set(id, { ...value, order_id: value.order_id as number | string });
    return;
  }
  for (const key of ['orders', 'order', 'data', 'response', 'payload']) {
    if (Object.hasOwn(value, key)) collect(value[key], depth + 1, out);
  }
}

/** The orders of a webhook body, each once, in the order sent. */
export function parseOrdersBody(body: unknown): HoroshopOrder[] {
  const out = new Map<string, HoroshopOrder>();
  collect(body, 0, out);
  return [...out.values()];
}
