// The stored shape of a secret sealed by lib/secret-box (the jsonb of token columns).
export type SealedSecret = {
  v: 1;
  /** Which key sealed it: a hash prefix, not the key. */
  kid: string;
  iv: string;
  tag: string;
  data: string;
};
