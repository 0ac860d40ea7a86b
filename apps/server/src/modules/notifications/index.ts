/** The notifications area's public face: what other areas and the app may use of it (the rest is its own). */
export { registerNotifications } from './notifications.module.ts';
export { checkSuspicious } from './notifications.service.ts';
