import { describe, expect, it } from 'vitest';
import { DEFAULT_DIALOG_URL, DEFAULT_GRAPH_URL, GRAPH_API_VERSION, graphVersionStatus, versionOfUrl } from './versions';

const on = (day: string) => new Date(`${day}T12:00:00Z`);

describe('Graph API versions (Meta changelog, read 27 November 2026)', () => {
  it('v20.0: live in 2025, retired for lead ads by 19 February 2026 (Marketing API), for Graph on 24 September', () => {
    expect(graphVersionStatus('v20.0', on('2025-06-01'))).toBe('live');
    expect(graphVersionStatus('v20.0', new Date('2026-02-19T00:00:00Z'))).toBe('retired');
    expect(graphVersionStatus('v25.0', on('2027-02-22'))).toBe('live');
    expect(graphVersionStatus('v25.0', on('2027-02-23'))).toBe('retired');
  });

  it('a version whose Marketing API (lead retrieval) expired is retired, though Graph still serves it', () => {
    expect(graphVersionStatus('v24.0', on('2026-11-09'))).toBe('live');
    expect(graphVersionStatus('v24.0', on('2026-11-10'))).toBe('retired');
    // No Marketing date for v21.0 in the table: v22.0's (19 February 2026) bounds it.
    expect(graphVersionStatus('v21.0', on('2026-02-19'))).toBe('retired');
  });

  it('a version not yet released, or never released, is unknown; one older than the table is retired', () => {
    expect(graphVersionStatus('v27.0', on('2026-11-03'))).toBe('unknown');
    expect(graphVersionStatus('v99.0', on('2026-11-27'))).toBe('unknown');
    expect(graphVersionStatus('v2.0', on('2026-11-27'))).toBe('retired');
    expect(graphVersionStatus('latest', on('2026-11-27'))).toBe('unknown');
  });

  it('the server calls one version everywhere, and it is live today', () => {
    expect(versionOfUrl(DEFAULT_GRAPH_URL)).toBe(GRAPH_API_VERSION);
    expect(versionOfUrl(DEFAULT_DIALOG_URL)).toBe(GRAPH_API_VERSION);
    expect(graphVersionStatus(GRAPH_API_VERSION, on('2026-11-27'))).toBe('live');
    // Fails on the day the table's end for this version has come: move GRAPH_API_VERSION then.
    expect(graphVersionStatus(GRAPH_API_VERSION)).toBe('live');
  });
});
