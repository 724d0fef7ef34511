import type { Integration } from '@leadrelay/shared';

/** The integrations that send their leads to a destination (its id in their `destination`), by name. */
export function sourcesOf(all: readonly Integration[], destinationId: string): Integration[] {
  return all
    .filter((i) => i._id !== destinationId && i.destination.some((d) => d._id === destinationId))
    .sort((a, b) => a.name.localeCompare(b.name));
}
