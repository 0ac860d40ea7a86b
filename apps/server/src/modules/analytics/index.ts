/** The analytics area's public face: what other areas and the app may use of it (the rest is its own). */
export { registerAnalytics } from './analytics.module.ts';
export { PageViewCounter, QueueJoinLog } from './write-batch.ts';
