import type { ConnectorLogo } from '../kit/manifest';

// Uspacy is in no icon package we can use (docs/dependencies.md): its initials on the brand's colour, our drawing.
export const logo: ConnectorLogo = { tile: { initials: 'U', color: '#4a3fd6' } };
