import { INTEGRATION_TYPES } from '@leadrelay/shared';
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TypeLogo } from './type-logo';

const logo = (slug: string) => {
  const { container } = render(<TypeLogo slug={slug} />);
  return container.querySelector(`[data-logo="${slug}"]`) as HTMLElement;
};

describe('integration type logos', () => {
  it('draws the generic mark for a catalogue slug named like a built-in member (constructor, valueOf…)', () => {
    for (const slug of ['constructor', 'valueOf', 'toString', '__proto__']) {
      const el = logo(slug);
      expect(el, slug).toBeTruthy();
      expect(el.querySelector('[aria-label="appstore"]'), slug).toBeTruthy();
    }
  });

  it.each(INTEGRATION_TYPES)('%s has a logo, hidden from screen readers (its name is written beside it)', (slug) => {
    const el = logo(slug);
    expect(el).toBeTruthy();
    expect(el.getAttribute('aria-hidden')).toBe('true');
    // Never the generic "app" placeholder.
    expect(el.querySelector('[aria-label="appstore"]')).toBeNull();
  });

  it.each([
    ['facebook', ['#0866FF']],
    ['ga', ['#E37400']],
    ['googlesheets', ['#34A853']],
    ['pipedrive', ['#231f1f']],
    ['webhook', ['#c73a63']],
  ])("%s is drawn from the brand's own mark in its colours", (slug, colours) => {
    const paths = [...logo(slug).querySelectorAll('svg path')];
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.every((p) => (p.getAttribute('d') ?? '').length > 20)).toBe(true);
    const fills = new Set(paths.map((p) => p.getAttribute('fill')));
    expect([...fills].some((f) => colours.includes(f ?? ''))).toBe(true);
  });

  it("pipedrive is the wordmark's first letter alone, the 'p' of its app icon", () => {
    const paths = [...logo('pipedrive').querySelectorAll('svg path')];
    expect(paths).toHaveLength(1);
    expect(paths[0]?.getAttribute('fill')).toBe('#231f1f');
    expect(paths[0]?.getAttribute('d')).toMatch(/^M44\.138 23\.65/);
  });

  it.each([
    ['amocrm', 'amo'],
    ['uspacy', 'U'],
    ['sendpulse', 'SP'],
    ['horoshop', 'H'],
    ['promua', 'P'],
    ['alfasms', 'AS'],
    ['keycrm', 'KC'],
  ])("%s, which no package carries, is its initials on the brand's colour", (slug, initials) => {
    const el = logo(slug);
    expect(el.textContent).toBe(initials);
    expect(el.querySelector('svg')).toBeNull();
    expect(el.style.background).not.toBe('');
  });
});
