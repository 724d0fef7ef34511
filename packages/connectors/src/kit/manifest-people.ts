// The `collection` widget kind (kit/manifest.ts, ADR 014): the integration's distribution collection
// (the people a destination reaches: the managers a bot sends cards to), chosen and saved at once,
// and which of its people have linked themselves (a chat), by a field of theirs.
import type { Span } from './manifest';

export interface CollectionCard<K extends string> {
  widget: 'collection';
  span?: Span;
  title: K;
  hint: K;
  /** The select's name for screen readers. */
  label: K;
  /** The select's "no collection". */
  none: K;
  /** The chosen collection has nobody. */
  empty: K;
  /** A person has linked while this field of theirs is set; its `handle` is shown as @handle, else `yes`. */
  linked: { field: string; handle?: string; yes: K; no: K };
  /** The link to the collections page. */
  manage: K;
}
