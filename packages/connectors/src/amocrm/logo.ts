import type { ConnectorLogo } from '../kit/manifest';

// amoCRM is in no icon package we can use (docs/dependencies.md): its initials on the brand's colour, our drawing.
export const logo: ConnectorLogo = { tile: { initials: 'amo', color: '#1e6fd9' } };
