import { siTiktok } from 'simple-icons';
import { type ConnectorLogo, simpleIconLogo } from '../kit/manifest';

// TikTok's mark from simple-icons (CC0; the mark stays its owner's, used only to name the service).
export const logo: ConnectorLogo = simpleIconLogo(siTiktok);
