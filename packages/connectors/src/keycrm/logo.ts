import type { ConnectorLogo } from '../kit/manifest';

// KeyCRM is in no icon package we can use (docs/dependencies.md): its initials on the brand's colour, our drawing.
export const logo: ConnectorLogo = { tile: { initials: 'KC', color: '#3b5bdb' } };
