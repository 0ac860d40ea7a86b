/** The checklist area's public face: what other areas and the app may use of it (the rest is its own). */
export { registerChecklist } from './checklist.module.ts';
export { computeChecklist, preLiveFailures } from './checklist.service.ts';
