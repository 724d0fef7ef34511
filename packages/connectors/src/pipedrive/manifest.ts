// What the web knows of Pipedrive (kit/manifest.ts). Its screens are still the web's own pages: they move
// here as a `page` described with the widget kinds (issue 29).
import { defineManifest } from '../kit/manifest';
import { logo } from './logo';

export const manifest = defineManifest({ slug: 'pipedrive', kind: 'destination', name: 'Pipedrive', logo });
