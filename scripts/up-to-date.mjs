// Whether a build's outputs are newer than every file and folder it is made of (deleting a file
// changes its folder's time), so `npm start` skips a build that would change nothing.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function newest(path) {
  const stat = statSync(path);
  let latest = stat.mtimeMs;
  if (!stat.isDirectory()) return latest;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    latest = Math.max(latest, newest(join(path, entry)));
  }
  return latest;
}

/** true when every output exists and is newer than the newest of the sources that exist. */
export function isUpToDate(sources, outputs) {
  if (!outputs.every((output) => existsSync(output))) return false;
  const built = Math.min(...outputs.map((output) => statSync(output).mtimeMs));
  return Math.max(...sources.filter((source) => existsSync(source)).map(newest)) < built;
}
