/** The monitor area's public face: what other areas and the app may use of it (the rest is its own). */
export { registerMonitor } from './monitor.module.ts';
