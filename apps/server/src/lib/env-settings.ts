// A module's environment settings, declared by the module (as connectors declare `config`): its
// keys with their schemas and defaults, and what they become in the app's Env. env.ts, the only
// reader of process.env, parses them with the server's own keys and knows no module; the boot code
// hands it the list (app-modules.ts).
import { z } from 'zod';

export const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/** `true`, `1`, `yes` are on; unset, blank and the rest of the list are off. */
export const boolish = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .default('false')
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

export const optionalText = z.preprocess(blankToUndefined, z.string().optional());

export const textOr = (fallback: string) => z.preprocess(blankToUndefined, z.string().default(fallback));

/** What a module may build its settings on besides its own keys. */
export interface ServerBasics {
  /** HOST: the address the server listens on. */
  host: string;
  /** PUBLIC_URL, or http://localhost:$PORT; no trailing slash. */
  publicUrl: string;
}

export interface ModuleSettings<S extends z.ZodRawShape = z.ZodRawShape, E extends object = object> {
  /** The keys, parsed with the server's own; a bad value is `KEY: message` in the startup error. */
  keys: S;
  /** What the keys cannot say one by one (two that go together), as words after "Invalid environment: ". */
  problem?: (values: z.output<z.ZodObject<S>>) => string | undefined;
  /** The module's part of Env. */
  read: (values: z.output<z.ZodObject<S>>, server: ServerBasics) => E;
}

// biome-ignore lint/suspicious/noExplicitAny: any shape; each module's own is checked where it is declared.
export type AnyModuleSettings = ModuleSettings<any, object>;

export function defineSettings<S extends z.ZodRawShape, E extends object>(settings: ModuleSettings<S, E>) {
  return settings;
}

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

// biome-ignore lint/suspicious/noExplicitAny: matches any shape, to take the module's part of Env.
type PartOf<M> = M extends { readonly settings?: ModuleSettings<any, infer E> } ? E : never;

/** The parts of Env the listed modules declare, as one type. */
export type ModulesEnv<M extends readonly { readonly settings?: AnyModuleSettings }[]> = UnionToIntersection<
  PartOf<M[number]>
>;
