/** The analytics area's public face: what other areas and the app may use of it (the rest is its own). */
export { registerAnalytics } from './analytics.module.ts';
export { PageViewCounter } from './page-views.ts';
export { insertQueueJoin } from './analytics.repository.ts';
