// The glossary's names (docs/glossary.md) as one pattern that finds any of them as a whole word,
// the way the tests' word checks read a text. No Node here: the web's tests import it too.

const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The names as whole words, longest first ("Google Analytics" before "Google"). */
export const namesPattern = (names: readonly string[]): RegExp =>
  new RegExp(
    `(?<![\\p{L}\\d])(?:${[...names]
      .sort((a, b) => b.length - a.length)
      .map(literal)
      .join('|')})(?![\\p{L}\\d])`,
    'gu',
  );
