// Finding a person in a CRM whose contact search is a text search: what to search for, and whether
// a found phone is the lead's (the match is confirmed here, never trusted to the search).

const digits = (s: string) => s.replace(/\D/g, '');

/** Compares phones by their last 9 digits (the national number in most countries), else exactly. */
export function samePhone(a: string, b: string): boolean {
  const x = digits(a);
  const y = digits(b);
  if (x.length >= 9 && y.length >= 9) return x.slice(-9) === y.slice(-9);
  return x !== '' && x === y;
}

/** What to search for: the phone's last 9 digits (matches +380…, 380… and 0… spellings). */
export function phoneQuery(phone: string): string {
  const d = digits(phone);
  return d.length > 9 ? d.slice(-9) : d;
}
