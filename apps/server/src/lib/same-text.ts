import { timingSafeEqual } from 'node:crypto';

/** Whether two secrets (tokens, signatures) are equal, in time that does not tell how much matched. */
export function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}
