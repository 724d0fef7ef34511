/** The connector folder a path under packages/connectors/src/ names (its slug). */
export function folderOf(path: string): string {
  const folder = /\/src\/([^/]+)\/(?:[^/]+\/){0,2}[^/]+$/.exec(path)?.[1];
  if (!folder) throw new Error(`not a connector's file: ${path}`);
  return folder;
}
