// Realistic webhook leads of 1–2 KB: a website form with contacts, UTM tags, a comment and custom
// fields. Bodies are built from a seeded pool so a run is repeatable, and every one carries its
// sequence number, so no two bodies are equal and none is taken for a repeat.

const FIRST = ['Olena', 'Taras', 'Iryna', 'Andrii', 'Oksana', 'Dmytro', 'Natalia', 'Serhii', 'Yulia', 'Bohdan'];
const LAST = ['Kovalenko', 'Shevchenko', 'Bondarenko', 'Tkachenko', 'Kravchenko', 'Melnyk', 'Boyko', 'Lysenko'];
const SOURCES = ['facebook', 'instagram', 'google', 'tiktok', 'newsletter', 'partner'];
const MEDIUMS = ['cpc', 'social', 'email', 'referral', 'display'];
const CAMPAIGNS = ['spring_sale', 'black_friday', 'webinar_2026', 'brand', 'retargeting_30d'];
const CITIES = ['Kyiv', 'Lviv', 'Odesa', 'Kharkiv', 'Dnipro', 'Vinnytsia', 'Poltava', 'Chernivtsi'];
const PRODUCTS = ['Starter plan', 'Business plan', 'Annual licence', 'Consultation', 'Delivery', 'Installation'];
const WORDS =
  'please call me back tomorrow after lunch I would like to know the price and delivery time for the order we discussed also interested in installation and warranty terms for our office in the city centre'.split(
    ' ',
  );

/** A small deterministic generator (mulberry32): the same seed gives the same leads. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

function words(random: () => number, count: number): string {
  return Array.from({ length: count }, () => pick(random, WORDS)).join(' ');
}

/** One lead's fields without the per-request part (seq and send time). */
export function leadFields(random: () => number): Record<string, string> {
  const first = pick(random, FIRST);
  const last = pick(random, LAST);
  const digits = String(Math.floor(random() * 1e9)).padStart(9, '0');
  const fields: Record<string, string> = {
    name: `${first} ${last}`,
    phone: `+380${digits}`,
    email: `${first}.${last}.${digits.slice(0, 4)}@example.com`.toLowerCase(),
    comment: words(random, 40 + Math.floor(random() * 90)),
    utm_source: pick(random, SOURCES),
    utm_medium: pick(random, MEDIUMS),
    utm_campaign: pick(random, CAMPAIGNS),
    utm_content: `ad_${Math.floor(random() * 500)}`,
    utm_term: words(random, 2),
    city: pick(random, CITIES),
    product: pick(random, PRODUCTS),
    quantity: String(1 + Math.floor(random() * 20)),
    budget_uah: String(1000 * (1 + Math.floor(random() * 200))),
    page_url: `https://shop.example.com/landing/${pick(random, CAMPAIGNS)}?variant=${Math.floor(random() * 9)}`,
    referrer: `https://www.${pick(random, SOURCES)}.com/`,
    user_agent:
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36',
    consent: random() < 0.9 ? 'yes' : 'no',
    form_id: `form-${Math.floor(random() * 40)}`,
    gclid: Math.floor(random() * 1e16).toString(36) + Math.floor(random() * 1e16).toString(36),
    preferred_time: `${9 + Math.floor(random() * 9)}:00`,
    company: `${pick(random, LAST)} ${pick(random, ['LLC', 'Group', 'Trade', 'Service'])}`,
    address: `${Math.floor(1 + random() * 200)} ${pick(random, LAST)} St, ${pick(random, CITIES)}, Ukraine`,
    landing_title: words(random, 6),
  };
  return fields;
}

/**
 * A pool of serialised bodies, each cut open where the per-request fields go, so making a body
 * costs one string concatenation (the load generator shares the 2 cores with the server).
 */
export class LeadPool {
  private readonly heads: string[];

  constructor(size = 1000, seed = 42) {
    const random = rng(seed);
    this.heads = Array.from({ length: size }, () => {
      const json = JSON.stringify(leadFields(random));
      return `${json.slice(0, -1)},`;
    });
  }

  /** The body of request `seq`: a pooled lead plus `event_id`, `bench_seq` and `bench_sent` (epoch ms). */
  body(runId: string, seq: number, sentAt = Date.now()): string {
    const head = this.heads[seq % this.heads.length]!;
    return `${head}"event_id":"${runId}-${seq}","bench_seq":"${seq}","bench_sent":"${sentAt}"}`;
  }

  /** Average body size in bytes (for the report). */
  averageBytes(runId: string): number {
    const total = this.heads.reduce((sum, _h, i) => sum + Buffer.byteLength(this.body(runId, i)), 0);
    return Math.round(total / this.heads.length);
  }

  minMaxBytes(runId: string): [number, number] {
    const sizes = this.heads.map((_h, i) => Buffer.byteLength(this.body(runId, i)));
    return [Math.min(...sizes), Math.max(...sizes)];
  }
}
