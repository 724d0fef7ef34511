// The guardian (issue 19 part 4; docs/adr/010-manager-bot.md): what it finds wrong with a source.

/** `drought`: leads stopped coming for much longer than the source's own history says is usual. */
export const GUARDIAN_ALERT_KINDS = ['drought'] as const;
export type GuardianAlertKind = (typeof GUARDIAN_ALERT_KINDS)[number];

/** What the guardian found wrong with a source (issue 19 part 4); `drought`: leads stopped coming. */
export interface GuardianAlert {
  _id: string;
  kind: GuardianAlertKind;
  integration: { _id: string; name: string; type: string };
  /** drought: the last lead before the silence. */
  silentSince: string | null;
  /** drought: leads the source's history expected during the silence when the alert opened. */
  expected: number | null;
  openedAt: string;
  /** When it was right again; null while open. */
  closedAt: string | null;
  notifiedAt: string | null;
}
