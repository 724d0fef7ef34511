// The connectors' reasons stored in their services' own words (each folder's stored-reasons.ts,
// kit/codes.ts), found by folder: a stored text in such a form reads as its connector's code.
import { parseReason, type Reason, type StoredReasonForm } from '@leadrelay/shared';

const FORMS: readonly StoredReasonForm[] = Object.values(
  import.meta.glob<readonly StoredReasonForm[]>('../../../../../packages/connectors/src/*/stored-reasons.ts', {
    eager: true,
    import: 'storedReasons',
  }),
).flat();

/** A stored reason text as a code with parameters (shared parseReason with every connector's forms). */
export const parseStoredReason = (text: string): Reason => parseReason(text, FORMS);
