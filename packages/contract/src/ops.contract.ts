import { z } from 'zod';
import { defineRoute } from './route.ts';

/** What /readyz checks; each is 'ok' or the reason it failed. */
export const ReadinessSchema = z.object({
  status: z.enum(['ready', 'not ready', 'draining']),
  checks: z.record(z.string(), z.string()),
});
export type Readiness = z.infer<typeof ReadinessSchema>;

/**
 * Operations (docs/operations.md): liveness and readiness for a load balancer or an orchestrator,
 * and Prometheus metrics. No session; /metrics asks for `Authorization: Bearer $METRICS_TOKEN`
 * when that is set.
 */
export const opsRoutes = {
  healthz: defineRoute({
    method: 'GET',
    path: '/healthz',
    public: true,
    response: z.object({ status: z.literal('ok') }),
  }),
  /** 200 when the database and the media store answer; 503 otherwise, and while draining. */
  readyz: defineRoute({ method: 'GET', path: '/readyz', public: true, response: ReadinessSchema }),
  /** Prometheus text format. */
  metrics: defineRoute({ method: 'GET', path: '/metrics', public: true, response: null }),
};
