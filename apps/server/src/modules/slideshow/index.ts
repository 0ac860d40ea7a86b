/** The slideshow area's public face: what other areas and the app may use of it (the rest is its own). */
export { registerSlideshow } from './slideshow.module.ts';
