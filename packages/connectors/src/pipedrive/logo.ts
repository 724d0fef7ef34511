import pipedriveLogo from '@iconify-icons/logos/pipedrive';
import { type ConnectorLogo, iconifyPaths } from '../kit/manifest';

// SVG Logos (@iconify-icons/logos, CC0) has Pipedrive's wordmark only, unreadable 40 px wide: the tile
// shows its first letter, the "p" Pipedrive's own app icon is. The wordmark draws one path a letter
// after the i's dots; the "p" is the first of them.
export const logo: ConnectorLogo = {
  mark: { viewBox: '-9.5 23.5 93 93', paths: iconifyPaths(pipedriveLogo.body).slice(1, 2) },
};
