import type { PaymentMethod } from '@leadrelay/shared';
import type { TFunction } from 'i18next';

const KNOWN_TYPES = ['visa', 'mc', 'mastercard', 'prostir', 'amex', 'maestro'] as const;

/** "Visa", "Mastercard", or "Card" when the provider did not say. */
export function cardType(type: string | null, t: TFunction<'billing'>): string {
  const known = KNOWN_TYPES.find((k) => k === type?.toLowerCase());
  return known ? t(`card.types.${known}`) : t('card.types.unknown');
}

/** The provider's mask (424242******4242, 424242*42) as a short "··4242". */
export function cardDigits(mask: string): string {
  const last = /(\d{2,4})$/.exec(mask)?.[1];
  return last ? `··${last}` : mask;
}

/** "Visa ··4242". */
export function cardLabel(card: PaymentMethod, t: TFunction<'billing'>): string {
  return `${cardType(card.card.type, t)} ${cardDigits(card.card.mask)}`;
}
