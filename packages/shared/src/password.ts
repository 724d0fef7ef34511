import { GENERATED_PASSWORD_MAX_LENGTH, GENERATED_PASSWORD_MIN_LENGTH } from './constants';

const DIGITS = '0123456789';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const ALL = DIGITS + LOWER + UPPER;

/** A uniformly random integer in [0, max) from the platform CSPRNG. */
function randomInt(max: number): number {
  const buf = new Uint32Array(1);
  const limit = Math.floor(0x1_0000_0000 / max) * max;
  do crypto.getRandomValues(buf);
  while ((buf[0] as number) >= limit);
  return (buf[0] as number) % max;
}

function pick(set: string): string {
  return set[randomInt(set.length)] as string;
}

/** Spec section 5: length 8 to 12, at least one digit, one lowercase and one uppercase letter. */
export function generatePassword(): string {
  const span = GENERATED_PASSWORD_MAX_LENGTH - GENERATED_PASSWORD_MIN_LENGTH + 1;
  const length = GENERATED_PASSWORD_MIN_LENGTH + randomInt(span);
  const chars = [pick(DIGITS), pick(LOWER), pick(UPPER)];
  while (chars.length < length) chars.push(pick(ALL));
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j] as string, chars[i] as string];
  }
  return chars.join('');
}
