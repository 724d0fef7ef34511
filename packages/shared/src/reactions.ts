// Speed to lead (issue 19): a manager's reactions to a lead and the report on how fast they come.
// The request schemas are in ./reaction-requests, so a page that shows a reaction goes without zod.

/** `taken`: a manager took the lead ("Беру"); `called`: they called the customer back. */
export const REACTION_KINDS = ['taken', 'called'] as const;
export type ReactionKind = (typeof REACTION_KINDS)[number];
/** Where a reaction was recorded: the manager bot, the web app, or read from the CRM. */
export const REACTION_VIAS = ['telegram', 'web', 'crm'] as const;
export type ReactionVia = (typeof REACTION_VIAS)[number];

/** The report's thresholds: the share of leads reacted to within each (minutes). */
export const SPEED_TO_LEAD_WITHIN_MINUTES = [5, 15, 60] as const;
/** How many days back the report may look. */
export const SPEED_TO_LEAD_MAX_DAYS = 92;

export interface LeadReaction {
  kind: ReactionKind;
  byName: string | null;
  via: ReactionVia;
  at: string;
}

/** The answer of recording a reaction: `recorded` false when the lead already had one of that kind (the first stands). */
export interface ReactionResult {
  recorded: boolean;
  reaction: LeadReaction;
}

/** One group of the report: a day (Kyiv), a source integration and the manager the leads were given to. */
export interface SpeedToLeadRow {
  day: string;
  integrationId: string;
  /** The assignee the distribution gave the leads to; null without a distribution. */
  manager: string | null;
  leads: number;
  /** Leads with a first reaction. */
  reacted: number;
  /** Leads nobody took. */
  neverTaken: number;
  /** From receipt to the first reaction, over the leads reacted to (ms); null when none. */
  medianMs: number | null;
  p90Ms: number | null;
  /** Share of all the group's leads reacted to within 5, 15 and 60 minutes (0–1). */
  within: Record<`${(typeof SPEED_TO_LEAD_WITHIN_MINUTES)[number]}`, number>;
  /** From receipt to the first delivery to a destination (ms, median); null when none was delivered. */
  deliveryMedianMs: number | null;
}

export interface SpeedToLeadReport {
  from: string;
  to: string;
  timeZone: string;
  rows: SpeedToLeadRow[];
}

/** Speed to lead over a set of leads (the breakdown's groups and its total). */
export interface SpeedStat {
  leads: number;
  reacted: number;
  neverTaken: number;
  medianMs: number | null;
  p90Ms: number | null;
  within: Record<`${(typeof SPEED_TO_LEAD_WITHIN_MINUTES)[number]}`, number>;
}

/**
 * The report's screen and the weekly mail: the period as a whole and by each dimension on its own
 * (per day, per source integration, per manager), each median computed over its own leads.
 */
export interface SpeedToLeadBreakdown {
  from: string;
  to: string;
  timeZone: string;
  total: SpeedStat;
  byDay: (SpeedStat & { day: string })[];
  byIntegration: (SpeedStat & { integration: { _id: string; name: string; type: string } })[];
  byManager: (SpeedStat & { manager: string | null })[];
}
