/** The users area's public face: what other areas and the app may use of it (the rest is its own). */
export { registerUsers } from './users.module.ts';
