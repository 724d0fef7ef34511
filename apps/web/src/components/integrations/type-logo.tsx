import { AppstoreOutlined, MailOutlined, SendOutlined } from '@ant-design/icons';
import pipedriveLogo from '@iconify-icons/logos/pipedrive';
import webhooksLogo from '@iconify-icons/logos/webhooks';
import { ownValue } from '@leadrelay/shared';
import type { ReactNode } from 'react';
import { siFacebook, siGoogleanalytics, siTelegram } from 'simple-icons';

// A logo for every integration type the catalogue offers (issue 17 part 4), decorative: the type's
// name is always written beside it. docs/dependencies.md records where each comes from.
// - A brand a package carries is drawn from that package's paths, in its colours: simple-icons
//   (Facebook, Google Analytics, Telegram) and SVG Logos through @iconify-icons/logos (Pipedrive, the
//   webhook mark), both CC0; the marks stay their owners', used only to name the service.
// - A brand no package carries (amoCRM, Uspacy, SendPulse, Horoshop, AlphaSMS) gets our own tile:
//   its name's initials on the brand's colour, never an imitation of its mark.
// - A type that is no brand (an HTTP request, the e-mail parser) gets a glyph for what it does.

interface Mark {
  viewBox: string;
  paths: { d: string; fill: string }[];
}

/** The paths of an Iconify icon's body (SVG Logos bodies are plain <path fill d/> lists). */
function iconifyPaths(body: string): Mark['paths'] {
  return [...body.matchAll(/<path\b([^>]*)\/>/g)].map(([, attrs = '']) => ({
    d: /\sd="([^"]*)"/.exec(attrs)?.[1] ?? '',
    fill: /\sfill="([^"]*)"/.exec(attrs)?.[1] ?? 'currentColor',
  }));
}

const simpleIcon = ({ path, hex }: { path: string; hex: string }): Mark => ({
  viewBox: '0 0 24 24',
  paths: [{ d: path, fill: `#${hex}` }],
});

const MARKS: Record<string, Mark> = {
  facebook: simpleIcon(siFacebook),
  ga: simpleIcon(siGoogleanalytics),
  telegram: simpleIcon(siTelegram),
  webhook: {
    viewBox: `0 0 ${webhooksLogo.width ?? 256} ${webhooksLogo.height ?? 256}`,
    paths: iconifyPaths(webhooksLogo.body),
  },
  // SVG Logos has Pipedrive's wordmark only, unreadable 40 px wide: the tile shows its first
  // letter, the "p" Pipedrive's own app icon is. The wordmark draws one path a letter after the
  // i's dots; the "p" is the first of them.
  pipedrive: { viewBox: '-9.5 23.5 93 93', paths: iconifyPaths(pipedriveLogo.body).slice(1, 2) },
};

/** Brands no package carries: initials on the brand's own colour (our drawing). */
const TILES: Record<string, { initials: string; color: string }> = {
  amocrm: { initials: 'amo', color: '#1e6fd9' },
  uspacy: { initials: 'U', color: '#4a3fd6' },
  sendpulse: { initials: 'SP', color: '#1a5fd6' },
  horoshop: { initials: 'H', color: '#12805c' },
  alfasms: { initials: 'AS', color: '#c8102e' },
};

const GLYPHS: Record<string, ReactNode> = {
  http: <SendOutlined aria-hidden />,
  parser: <MailOutlined aria-hidden />,
};

/** The logo of one integration type; decorative (the type's name is always written beside it). */
export function TypeLogo({ slug, size = 40 }: { slug: string; size?: number }) {
  const style = { width: size, height: size, fontSize: Math.round(size * 0.5) };
  // A slug is the catalogue's (an operator may name one `constructor`): own entries only.
  const mark = ownValue(MARKS, slug) as Mark | undefined;
  if (mark) {
    const inner = Math.round(size * 0.6);
    return (
      <span className="lr-type-logo is-brand" style={style} aria-hidden="true" data-logo={slug}>
        <svg aria-hidden="true" focusable="false" viewBox={mark.viewBox} width={inner} height={inner}>
          {mark.paths.map((p) => (
            <path key={p.d} d={p.d} fill={p.fill} />
          ))}
        </svg>
      </span>
    );
  }
  const tile = ownValue(TILES, slug) as (typeof TILES)[string] | undefined;
  if (tile) {
    return (
      <span
        className="lr-type-logo is-tile"
        style={{ ...style, background: tile.color }}
        aria-hidden="true"
        data-logo={slug}
      >
        <span
          className="lr-type-logo-initials"
          style={{ fontSize: Math.round(size * (tile.initials.length > 1 ? 0.32 : 0.45)) }}
        >
          {tile.initials}
        </span>
      </span>
    );
  }
  return (
    <span className="lr-type-logo" style={style} aria-hidden="true" data-logo={slug}>
      {(ownValue(GLYPHS, slug) as ReactNode) ?? <AppstoreOutlined aria-hidden />}
    </span>
  );
}
