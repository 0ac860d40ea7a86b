import { opsRoutes } from '@stadiumcam/contract';
import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { unauthorized, ERR } from '../../errors.ts';
import { registerRoute, tokenMatches } from '../../plugins/routes.ts';
import { liveGauge, loopDelayOf, loopLag } from './ops.metrics.ts';
import { readiness } from './ops.service.ts';

/**
 * Operations: /healthz, /readyz and /metrics without a session (docs/operations.md), the HTTP
 * latency of every request, and debug-level request lines (secrets never logged: the path only,
 * without its query).
 */
export function registerOps(app: App, deps: Deps): void {
  const { ops } = deps;
  app.addHook('onResponse', async (req, reply) => {
    const route = req.routeOptions.url ?? 'unmatched';
    ops.httpDuration.observe({ method: req.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    req.log.debug(
      { method: req.method, route, status: reply.statusCode, ms: Math.round(reply.elapsedTime) },
      'request',
    );
  });

  liveGauge(ops, 'stadiumcam_socket_clients', 'Connected socket.io clients by namespace', ['namespace'], (set) => {
    for (const nsp of [deps.realtime.consoles, deps.realtime.devices, deps.realtime.slideshow])
      set({ namespace: nsp.name }, nsp.sockets.size);
  });
  liveGauge(
    ops,
    'stadiumcam_frames_total',
    'Camera frames received from hosts and dropped for busy consoles',
    ['kind'],
    (set) => {
      set({ kind: 'received' }, deps.cameras.counters.framesIn);
      set({ kind: 'dropped' }, deps.cameras.counters.framesDropped);
    },
  );
  liveGauge(ops, 'stadiumcam_queue_length', 'Attendees waiting, by event and camera', ['event', 'camera'], (set) => {
    for (const [event, e] of deps.metrics.events)
      for (const [camera, users] of e.queues) set({ event, camera }, users.size);
  });
  liveGauge(ops, 'stadiumcam_event_loop_lag_seconds', 'Event-loop lag since the last scrape', ['quantile'], (set) => {
    const h = loopDelayOf(ops);
    const lag = loopLag(h);
    set({ quantile: '0.5' }, lag.p50 / 1e3);
    set({ quantile: '0.99' }, lag.p99 / 1e3);
    set({ quantile: 'max' }, lag.max / 1e3);
    h.reset();
  });
  liveGauge(ops, 'stadiumcam_resident_memory_bytes', 'Resident set size of the process', [], (set) =>
    set({}, process.memoryUsage().rss),
  );
  app.addHook('onClose', async () => ops.loopDelay?.disable());

  registerRoute(app, opsRoutes.healthz, async () => ({ status: 'ok' as const }));
  registerRoute(app, opsRoutes.readyz, async ({ reply }) => {
    const answer = await readiness(deps);
    if (answer.status !== 'ready') void reply.status(503);
    return answer;
  });
  registerRoute(app, opsRoutes.metrics, async ({ req, reply }) => {
    const token = deps.config.metricsToken;
    if (token && !tokenMatches(req.headers.authorization?.replace(/^Bearer /, ''), token)) {
      throw unauthorized(ERR.ops.metricsToken);
    }
    void reply.header('content-type', ops.registry.contentType).send(await ops.registry.metrics());
  });
}
