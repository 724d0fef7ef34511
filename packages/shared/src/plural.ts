// Ukrainian plural categories: 1 день, 2–4 дні, 5–20 днів, 21 день, 22 дні, 25 днів, 111 днів.
export type PluralCategory = 'one' | 'few' | 'many';

export function ukrainianPlural(n: number): PluralCategory {
  const abs = Math.abs(Math.trunc(n));
  const mod10 = abs % 10;
  const mod100 = abs % 100;
  if (mod10 === 1 && mod100 !== 11) return 'one';
  if (mod10 >= 2 && mod10 <= 4 && (mod100 < 12 || mod100 > 14)) return 'few';
  return 'many';
}

const UK_DAY: Record<PluralCategory, string> = { one: 'день', few: 'дні', many: 'днів' };

/** "5 днів" / "5 days" */
export function formatDays(n: number, locale: 'uk' | 'en'): string {
  if (locale === 'uk') return `${n} ${UK_DAY[ukrainianPlural(n)]}`;
  return `${n} ${Math.abs(n) === 1 ? 'day' : 'days'}`;
}
