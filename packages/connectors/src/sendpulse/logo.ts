import type { ConnectorLogo } from '../kit/manifest';

// SendPulse is in no icon package we can use (docs/dependencies.md): its initials on the brand's colour, our drawing.
export const logo: ConnectorLogo = { tile: { initials: 'SP', color: '#1a5fd6' } };
