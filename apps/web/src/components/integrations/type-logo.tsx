import {
  ApiOutlined,
  AppstoreOutlined,
  MailOutlined,
  MessageOutlined,
  SendOutlined,
  ShopOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';
import { siFacebook, siGoogleanalytics } from 'simple-icons';

// A logo for every integration type the catalogue offers (issue 17 part 4). Brands that
// simple-icons carries (CC0; the marks stay their owners', used only to name the service) are
// drawn from its paths in the brand colour. The rest get a drawn neutral tile: a generic glyph for
// what the type does, or the brand's initials on a grey tile, never an imitation of the mark.
// docs/dependencies.md records the licences.

interface Brand {
  path: string;
  hex: string;
}

const BRANDS: Record<string, Brand> = {
  facebook: siFacebook,
  ga: siGoogleanalytics,
};

const GLYPHS: Record<string, ReactNode> = {
  webhook: <ApiOutlined />,
  http: <SendOutlined />,
  parser: <MailOutlined />,
  horoshop: <ShopOutlined />,
  alfasms: <MessageOutlined />,
};

const INITIALS: Record<string, string> = {
  amocrm: 'amo',
  pipedrive: 'P',
  uspacy: 'U',
  sendpulse: 'SP',
};

/** The logo of one integration type; decorative (the type's name is always written beside it). */
export function TypeLogo({ slug, size = 40 }: { slug: string; size?: number }) {
  const brand = BRANDS[slug];
  const style = { width: size, height: size, fontSize: Math.round(size * 0.5) };
  if (brand) {
    return (
      <span className="lr-type-logo is-brand" style={style} aria-hidden="true" data-logo={slug}>
        <svg
          aria-hidden="true"
          focusable="false"
          viewBox="0 0 24 24"
          width={Math.round(size * 0.6)}
          height={Math.round(size * 0.6)}
          fill={`#${brand.hex}`}
        >
          <path d={brand.path} />
        </svg>
      </span>
    );
  }
  const initials = INITIALS[slug];
  return (
    <span className="lr-type-logo" style={style} aria-hidden="true" data-logo={slug}>
      {initials ? (
        <span
          className="lr-type-logo-initials"
          style={{ fontSize: Math.round(size * (initials.length > 1 ? 0.32 : 0.45)) }}
        >
          {initials}
        </span>
      ) : (
        (GLYPHS[slug] ?? <AppstoreOutlined />)
      )}
    </span>
  );
}
