/** The ops area's public face: what other areas and the app may use of it (the rest is its own). */
export { registerOps } from './ops.module.ts';
export { createOpsMetrics, type OpsMetrics } from './ops.metrics.ts';
