import { BREAKPOINTS } from '@leadrelay/shared';
import type { ThemeConfig } from 'antd';

// The spec's breakpoints (xs under 768, sm under 992, md under 1200, lg under 1920, xl beyond) are
// BREAKPOINTS in @leadrelay/shared. Everything the web app sizes by width reads them from here: the
// antd grid (through the theme's screen tokens), the app's own media queries (useIsMobile) and,
// by a test that reads every stylesheet, the CSS.

export type Breakpoint = 'xs' | 'sm' | 'md' | 'lg' | 'xl';

/** The spec's name for a window this many CSS pixels wide. */
export function breakpointOf(width: number): Breakpoint {
  if (width < BREAKPOINTS.xs) return 'xs';
  if (width < BREAKPOINTS.sm) return 'sm';
  if (width < BREAKPOINTS.md) return 'md';
  if (width < BREAKPOINTS.lg) return 'lg';
  return 'xl';
}

/** A media query matching windows of this breakpoint and the narrower ones ("under 768" for xs). */
export function upTo(breakpoint: Exclude<Breakpoint, 'xl'>): string {
  return `(max-width: ${BREAKPOINTS[breakpoint] - 1}px)`;
}

// antd has seven breakpoints of its own (xs under 576, sm, md, lg, xl, xxl from 1600, xxxl from
// 1920). Its tokens are moved so that <Col sm md lg xl> start where the spec's sm, md, lg and xl
// do; its xxl and xxxl, which the spec does not have, are put past any screen in use so they
// never split the spec's xl.
const XXL = 2560;
const XXXL = 3840;

export const screenTokens = {
  screenXS: 480,
  screenXSMin: 480,
  screenXSMax: BREAKPOINTS.xs - 1,
  screenSM: BREAKPOINTS.xs,
  screenSMMin: BREAKPOINTS.xs,
  screenSMMax: BREAKPOINTS.sm - 1,
  screenMD: BREAKPOINTS.sm,
  screenMDMin: BREAKPOINTS.sm,
  screenMDMax: BREAKPOINTS.md - 1,
  screenLG: BREAKPOINTS.md,
  screenLGMin: BREAKPOINTS.md,
  screenLGMax: BREAKPOINTS.lg - 1,
  screenXL: BREAKPOINTS.lg,
  screenXLMin: BREAKPOINTS.lg,
  screenXLMax: XXL - 1,
  screenXXL: XXL,
  screenXXLMin: XXL,
  screenXXLMax: XXXL - 1,
  screenXXXL: XXXL,
  screenXXXLMin: XXXL,
} satisfies ThemeConfig['token'];
