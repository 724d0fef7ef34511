import type { ConnectorLogo } from '../kit/manifest';

// Bitrix24's mark is not in an icon package we can use (docs/dependencies.md): its initials on the brand's blue, our drawing.
export const logo: ConnectorLogo = { tile: { initials: 'B24', color: '#0b6fb5' } };
