import type { ConnectorLogo } from '../kit/manifest';

// Prom.ua is in no icon package we can use (docs/dependencies.md): its initials on a purple close to the brand's, our drawing.
export const logo: ConnectorLogo = { tile: { initials: 'P', color: '#6b2fd6' } };
