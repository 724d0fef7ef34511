// What the web knows of Facebook Lead Ads (kit/manifest.ts). Its screens are still the web's own pages: they move
// here as a `page` described with the widget kinds (issue 29).
import { defineManifest } from '../kit/manifest';
import { logo } from './logo';

export const manifest = defineManifest({ slug: 'facebook', kind: 'source', name: 'Facebook Lead Ads', logo });
