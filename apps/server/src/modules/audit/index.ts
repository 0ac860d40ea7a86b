/** The audit area's public face: what other areas and the app may use of it (the rest is its own). */
export { registerAudit } from './audit.module.ts';
export { recordAudit } from './audit.service.ts';
