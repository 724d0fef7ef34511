// A text summary of a V8 .cpuprofile (node --cpu-prof): self time by package and by function.
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  /** Microseconds since the previous sample. */
  timeDeltas: number[];
}

function packageOf(url: string, name: string): string {
  if (!url) return name.startsWith('(') ? name : '(native)';
  if (url.startsWith('node:')) return 'node core';
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + '/node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  const m = /\/(apps\/\w+|packages\/\w+)\//.exec(url);
  return m ? m[1]! : url;
}

/** `lastSeconds`: only the samples of the profile's last seconds (the measured run, not start-up). */
export function summarizeProfile(path: string, top = 25, lastSeconds?: number): string {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as Profile;
  const nodeById = new Map(profile.nodes.map((n) => [n.id, n]));
  const from = lastSeconds ? profile.endTime - lastSeconds * 1e6 : profile.startTime;
  const byPackage = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let at = profile.startTime;
  let totalMs = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at < from) return;
    const ms = delta / 1000;
    totalMs += ms;
    const node = nodeById.get(id);
    if (!node) return;
    const { functionName, url, lineNumber } = node.callFrame;
    const pkg = packageOf(url, functionName);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + ms);
    const file = url.split('/').slice(-2).join('/');
    const fn = `${functionName || '(anonymous)'} ${file ? `${file}:${lineNumber + 1}` : ''} [${pkg}]`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + ms);
  });
  const fmt = (entries: Map<string, number>) =>
    [...entries]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(
        ([k, ms]) =>
          `  ${((ms / totalMs) * 100).toFixed(1).padStart(5)}%  ${(ms / 1000).toFixed(2).padStart(7)} s  ${k}`,
      )
      .join('\n');
  return [
    `CPU profile ${path}: ${(totalMs / 1000).toFixed(1)} s of samples${lastSeconds ? ` (the last ${lastSeconds} s)` : ''}; wall-clock sampling, so time the process waited for a CPU counts where it was descheduled`,
    'self time by package:',
    fmt(byPackage),
    'self time by function:',
    fmt(byFunction),
  ].join('\n');
}
