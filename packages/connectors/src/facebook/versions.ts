// The Graph API version every server call uses, and Meta's published lifetimes of the versions around
// it (docs/connectors/facebook.md "Versions"). One setting: FACEBOOK_GRAPH_URL's and
// FACEBOOK_DIALOG_URL's defaults are built from GRAPH_API_VERSION, and the emulator serves exactly
// the versions this table calls live, so the tests notice when Meta retires the one we call.
//
// Sources (read 27 November 2026): developers.facebook.com/docs/graph-api/changelog/versions (Graph
// API: release and "available until") and developers.facebook.com/documentation/ads-commerce/
// marketing-api/marketing-api-changelog/versions (Marketing API, which lead retrieval belongs to:
// its versions expire much sooner). `null` = Meta says "TBD".

/** The version the server calls (Graph and the login dialog). Meta's newest on 27 November 2026. */
export const GRAPH_API_VERSION = 'v27.0';

export const DEFAULT_GRAPH_URL = `https://graph.facebook.com/${GRAPH_API_VERSION}`;
export const DEFAULT_DIALOG_URL = `https://www.facebook.com/${GRAPH_API_VERSION}/dialog/oauth`;

export interface GraphVersionLife {
  version: string;
  /** YYYY-MM-DD (UTC). */
  released: string;
  /** Graph API "available until" (YYYY-MM-DD), null while Meta says TBD. */
  graphUntil: string | null;
  /** Marketing API expiration (YYYY-MM-DD), null while TBD. */
  marketingUntil: string | null;
}

export const GRAPH_VERSIONS: readonly GraphVersionLife[] = [
  { version: 'v27.0', released: '2026-11-04', graphUntil: null, marketingUntil: null },
  { version: 'v26.0', released: '2026-07-29', graphUntil: null, marketingUntil: null },
  { version: 'v25.0', released: '2026-02-18', graphUntil: '2028-07-29', marketingUntil: '2027-02-23' },
  { version: 'v24.0', released: '2025-10-08', graphUntil: '2028-02-18', marketingUntil: '2026-11-10' },
  { version: 'v23.0', released: '2025-05-29', graphUntil: '2027-10-08', marketingUntil: '2026-06-09' },
  { version: 'v22.0', released: '2025-01-21', graphUntil: '2027-05-20', marketingUntil: '2026-02-19' },
  { version: 'v21.0', released: '2024-10-02', graphUntil: '2027-01-21', marketingUntil: null },
  { version: 'v20.0', released: '2024-05-21', graphUntil: '2026-09-24', marketingUntil: null },
  { version: 'v19.0', released: '2024-01-23', graphUntil: '2026-05-21', marketingUntil: null },
  { version: 'v18.0', released: '2023-09-12', graphUntil: '2026-01-26', marketingUntil: null },
  { version: 'v17.0', released: '2023-05-23', graphUntil: '2025-09-12', marketingUntil: null },
];

export type GraphVersionStatus = 'live' | 'retired' | 'unknown';

const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/**
 * Whether a lead-ads app can still call `version` on `at`: released, and neither its Graph nor its
 * Marketing API end has come (the lead flow uses both: login and pages, then forms and leads).
 * Stricter than Meta, which serves a retired version's calls with the oldest live one (Graph) or
 * refuses them with #2635 (Marketing): the emulator refuses both, so our tests notice.
 * Versions before v17.0, or not yet in the table, are unknown.
 */
export function graphVersionStatus(version: string, at: Date = new Date()): GraphVersionStatus {
  const life = GRAPH_VERSIONS.find((v) => v.version === version);
  if (!life) return /^v\d+\.\d+$/.test(version) && Number(version.slice(1)) < 17 ? 'retired' : 'unknown';
  const day = dayOf(at);
  if (day < life.released) return 'unknown';
  // Versions expire in order: a newer version's Marketing API end bounds this one's too (the table
  // has no Marketing dates for v21.0 and older, which expired before v22.0's).
  const newer = GRAPH_VERSIONS.filter((v) => v.released >= life.released);
  const ends = [life.graphUntil, ...newer.map((v) => v.marketingUntil)].filter((d): d is string => d !== null);
  return ends.some((end) => day >= end) ? 'retired' : 'live';
}

/** The version named by a Graph or dialog URL's first path segment (https://graph.facebook.com/v27.0). */
export function versionOfUrl(url: string): string | undefined {
  const first = URL.canParse(url) ? new URL(url).pathname.split('/').find(Boolean) : undefined;
  return first && /^v\d+\.\d+$/.test(first) ? first : undefined;
}
