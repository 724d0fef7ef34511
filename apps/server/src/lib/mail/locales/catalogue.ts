// The shape of the mail catalogue, read from the Ukrainian one: its keys, which of them are plural
// forms, and the `{parameters}` each string takes.
import type { uk } from './uk';

type Uk = typeof uk;
type UkKey = keyof Uk;

/** A sentence with plural forms, named without its _one/_few/_many/_other ending. */
export type PluralKey = UkKey extends infer K ? (K extends `${infer Base}_other` ? Base : never) : never;
/** A string with no plural forms. */
export type PlainKey = Exclude<UkKey, `${PluralKey}_${string}`>;

/** The names of the `{parameters}` in a string. */
type ParamNames<S> = S extends `${string}{${infer Name}}${infer Rest}` ? Name | ParamNames<Rest> : never;
export type Params<K extends PlainKey> = Record<ParamNames<Uk[K]>, string | number>;
export type PluralParams<K extends PluralKey> = Record<
  Exclude<ParamNames<Uk[`${K}_other` & UkKey]>, 'count'>,
  string | number
>;

/** English: every plain key, and the two plural forms English has. */
export type EnCatalogue = Record<PlainKey | `${PluralKey}_one` | `${PluralKey}_other`, string>;
