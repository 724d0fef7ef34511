// The connectors' words (packages/connectors/src/<slug>/words/<language>.json), one i18n namespace
// `connectors` keyed by the folder's name: connectors:<slug>.<key> (ADR 014).
import { folderOf } from '../lib/connectors/folder';

/** An eager import.meta.glob of the words files → { <slug>: words }. */
export function connectorWords(files: Record<string, object>): Record<string, object> {
  return Object.fromEntries(Object.entries(files).map(([path, words]) => [folderOf(path), words]));
}
