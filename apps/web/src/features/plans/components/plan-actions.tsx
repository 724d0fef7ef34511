import type { Plan } from '@leadrelay/shared';

export interface PlanActionsProps {
  plan: Plan;
  period: 'monthly' | 'annual';
  isCurrent: boolean;
}

/**
 * Where a plan card's pay or switch action goes once payments exist (a later step of issue 12).
 * Renders nothing until then: a button that does nothing would only mislead.
 */
export function PlanActions(_props: PlanActionsProps) {
  return null;
}
