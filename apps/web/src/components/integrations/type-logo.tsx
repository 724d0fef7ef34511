import { AppstoreOutlined, MailOutlined } from '@ant-design/icons';
import webhooksLogo from '@iconify-icons/logos/webhooks';
import { type ConnectorLogo, iconifyPaths, type LogoDrawing } from '@leadrelay/connectors/manifest';
import { CONNECTOR_LOGOS } from '../../lib/connectors/logos';

// A logo for every integration type the catalogue offers (issue 17 part 4), decorative: the type's
// name is always written beside it. A connector's logo is in its folder (packages/connectors/src/
// <slug>/logo.ts, ADR 014; docs/dependencies.md says where each comes from); the types that are no
// connector are drawn here: the webhook source with SVG Logos' webhook mark (CC0), the e-mail parser
// with a glyph of what it does.

const OWN_LOGOS: ReadonlyMap<string, ConnectorLogo> = new Map([
  [
    'webhook',
    {
      mark: {
        viewBox: `0 0 ${webhooksLogo.width ?? 256} ${webhooksLogo.height ?? 256}`,
        paths: iconifyPaths(webhooksLogo.body),
      },
    },
  ],
]);

function Drawing({ drawing, size }: { drawing: LogoDrawing; size: number }) {
  return (
    <svg aria-hidden="true" focusable="false" viewBox={drawing.viewBox} width={size} height={size}>
      {drawing.paths.map((p) => (
        <path key={p.d} d={p.d} fill={p.fill} />
      ))}
    </svg>
  );
}

/** The logo of one integration type; decorative (the type's name is always written beside it). */
export function TypeLogo({ slug, size = 40 }: { slug: string; size?: number }) {
  const style = { width: size, height: size, fontSize: Math.round(size * 0.5) };
  const logo = CONNECTOR_LOGOS.get(slug) ?? OWN_LOGOS.get(slug);
  if (logo && 'mark' in logo) {
    return (
      <span className="lr-type-logo is-brand" style={style} aria-hidden="true" data-logo={slug}>
        <Drawing drawing={logo.mark} size={Math.round(size * 0.6)} />
      </span>
    );
  }
  if (logo && 'tile' in logo) {
    const { initials, color } = logo.tile;
    return (
      <span
        className="lr-type-logo is-tile"
        style={{ ...style, background: color }}
        aria-hidden="true"
        data-logo={slug}
      >
        <span
          className="lr-type-logo-initials"
          style={{ fontSize: Math.round(size * (initials.length > 1 ? 0.32 : 0.45)) }}
        >
          {initials}
        </span>
      </span>
    );
  }
  return (
    <span className="lr-type-logo" style={style} aria-hidden="true" data-logo={slug}>
      {logo ? (
        <Drawing drawing={logo.glyph} size={style.fontSize} />
      ) : slug === 'parser' ? (
        <MailOutlined aria-hidden />
      ) : (
        <AppstoreOutlined aria-hidden />
      )}
    </span>
  );
}
