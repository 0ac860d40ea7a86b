/** The docs area's public face: what other areas and the app may use of it (the rest is its own). */
export { registerDocs } from './docs.module.ts';
