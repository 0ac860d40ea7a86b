import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io } from 'socket.io-client';
import { MSG, opsRoutes } from '@stadiumcam/contract';
import { createTestApp, describeEachDb, type TestApp } from '../../test/harness.ts';
import { freePort } from '../../test/realtime.ts';

describeEachDb('operations: /healthz, /readyz, /metrics', (t) => {
  it('answers /healthz and /readyz without a session', async () => {
    expect(await t().call(opsRoutes.healthz)).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(await t().call(opsRoutes.readyz)).toMatchObject({
      status: 200,
      body: { status: 'ready', checks: { database: 'ok', media: 'ok' } },
    });
  });

  it('counts requests by route pattern, and exposes sockets, frames, queues and loop lag', async () => {
    await t().call(opsRoutes.healthz);
    const res = await t().app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toMatch(
      /stadiumcam_http_request_duration_seconds_count\{method="GET",route="\/healthz",status="200"\} \d+/,
    );
    expect(res.body).toContain('stadiumcam_socket_clients{namespace="/console"} 0');
    expect(res.body).toContain('stadiumcam_frames_total{kind="received"}');
    expect(res.body).toContain('stadiumcam_photos_ingested_total 0');
    expect(res.body).toMatch(/stadiumcam_event_loop_lag_seconds\{quantile="0.99"\} [\d.e-]+/);
    expect(res.body).toMatch(/stadiumcam_resident_memory_bytes \d+/);
  });
});

describe('operations: readiness failures and the metrics token', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite', { metricsToken: 'metrics-secret-token' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('asks for the token on /metrics when METRICS_TOKEN is set', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ error: MSG.ops.metricsToken });
    const wrong = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer nope' } });
    expect(wrong.statusCode).toBe(401);
    const right = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer metrics-secret-token' },
    });
    expect(right.statusCode).toBe(200);
  });

  it('is not ready without its media folder, and while draining', async () => {
    await rm(t.config.mediaDir, { recursive: true, force: true });
    const missing = await t.call(opsRoutes.readyz);
    expect(missing.status).toBe(503);
    expect(missing.body.status).toBe('not ready');
    expect(missing.body.checks.database).toBe('ok');
    expect(missing.body.checks.media).toMatch(/ENOENT/);

    t.app.deps.ops.draining = true;
    const draining = await t.call(opsRoutes.readyz);
    expect(draining.status).toBe(503);
    expect(draining.body.status).toBe('draining');
  });
});

describe('SIGTERM drains the server', () => {
  it('stops accepting, closes the sockets so clients reconnect elsewhere, and exits 0 within 10 s', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'stadiumcam-drain-'));
    const port = await freePort();
    const root = path.resolve(import.meta.dirname, '../../../../..');
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: root,
      env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, SIMULATOR: 'off', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    try {
      const url = `http://127.0.0.1:${port}`;
      await expect
        .poll(async () => (await fetch(`${url}/readyz`).catch(() => null))?.status, { timeout: 90_000, interval: 500 })
        .toBe(200);
      // A slideshow screen holds a socket: the drain must close it.
      const screen = io(`${url}/slideshow`, { transports: ['websocket'], reconnection: false });
      await new Promise<void>((r) => screen.on('connect', () => r()));
      const dropped = new Promise<string>((r) => screen.on('disconnect', (reason) => r(reason)));

      const t0 = Date.now();
      child.kill('SIGTERM');
      expect(await dropped).toMatch(/transport close|io server disconnect/);
      expect(await exited).toBe(0);
      expect(Date.now() - t0).toBeLessThan(10_000);
      await expect(fetch(`${url}/healthz`)).rejects.toThrow();
    } catch (err) {
      throw new Error(`${(err as Error).message}\n--- server output ---\n${output}`);
    } finally {
      child.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
