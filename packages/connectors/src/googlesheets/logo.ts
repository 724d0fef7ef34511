import { siGooglesheets } from 'simple-icons';
import { type ConnectorLogo, simpleIconLogo } from '../kit/manifest';

// Google Sheets' mark from simple-icons (CC0; the mark stays its owner's, used only to name the service).
export const logo: ConnectorLogo = simpleIconLogo(siGooglesheets);
