/** The devices area's public face: what other areas and the app may use of it (the rest is its own). */
export { registerDevices } from './devices.module.ts';
