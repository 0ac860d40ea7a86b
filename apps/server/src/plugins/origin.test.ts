import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { io } from 'socket.io-client';
import { authRoutes } from '@stadiumcam/contract';
import { configFromEnv } from '../config.ts';
import { ADMIN_PASSWORD, createTestApp, type TestApp } from '../test/harness.ts';
import { listenUrl } from '../test/realtime.ts';
import { trustProxyOption } from './origin.ts';

/** Connects to /console with these headers; resolves 'connected' or the refusal's message. */
async function handshake(url: string, headers: Record<string, string>): Promise<string> {
  const s = io(`${url}/console`, {
    transports: ['websocket'],
    extraHeaders: headers,
    forceNew: true,
    reconnection: false,
  });
  try {
    return await new Promise<string>((resolve) => {
      s.once('connect', () => resolve('connected'));
      s.once('connect_error', (err) => resolve(err.message));
    });
  } finally {
    s.disconnect();
  }
}

describe('origin rule (issue 16 §3)', () => {
  let t: TestApp;
  let url = '';
  beforeAll(async () => {
    t = await createTestApp();
    url = await listenUrl(t);
  }, 60_000);
  afterAll(async () => t?.close());

  it('refuses a /console handshake from another origin (another port of the same host)', async () => {
    const cookie = await t.adminCookie();
    const port = new URL(url).port;
    expect(await handshake(url, { cookie, origin: `http://127.0.0.1:${Number(port) + 1}` })).not.toBe('connected');
    expect(await handshake(url, { cookie, origin: 'http://evil.example' })).not.toBe('connected');
    expect(await handshake(url, { cookie, origin: url })).toBe('connected');
    // Not a browser (camera hosts, tools): no Origin header.
    expect(await handshake(url, { cookie })).toBe('connected');
  });
});

describe('origin rule with PUBLIC_URL', () => {
  let t: TestApp;
  let url = '';
  beforeAll(async () => {
    t = await createTestApp('pglite', {
      publicUrl: 'https://stadium.example',
      publicOrigin: 'https://stadium.example',
    });
    url = await listenUrl(t);
  }, 60_000);
  afterAll(async () => t?.close());

  it('compares with PUBLIC_URL, not the Host header the client sent', async () => {
    const login = (origin: string) =>
      t.call(authRoutes.login, { body: { username: 'admin', password: ADMIN_PASSWORD }, headers: { origin } });
    // The harness sends Host: localhost with Origin: http://localhost, a pair an attacker can forge.
    expect((await login('http://localhost')).status).toBe(403);
    const ok = await login('https://stadium.example');
    expect(ok.status).toBe(200);
    const cookie = String(ok.headers['set-cookie']).split(';')[0];
    expect(await handshake(url, { cookie, origin: url })).not.toBe('connected');
    expect(await handshake(url, { cookie, origin: 'https://stadium.example' })).toBe('connected');
  });
});

describe('TRUST_PROXY (issue 16 §10)', () => {
  const ipWith = async (value: string | undefined, xff: string) => {
    const app = Fastify({ trustProxy: trustProxyOption(configFromEnv({ TRUST_PROXY: value }).trustProxy) });
    app.get('/ip', (req) => ({ ip: req.ip }));
    const res = await app.inject({ url: '/ip', remoteAddress: '10.0.0.1', headers: { 'x-forwarded-for': xff } });
    await app.close();
    return res.json<{ ip: string }>().ip;
  };

  it('takes the right-most untrusted hop, never the client-written left-most one', async () => {
    // One proxy (true): the address the proxy saw, not what the client claimed.
    expect(await ipWith('true', '6.6.6.6, 203.0.113.7')).toBe('203.0.113.7');
    expect(await ipWith('2', '6.6.6.6, 203.0.113.7, 10.0.0.2')).toBe('203.0.113.7');
    expect(await ipWith('10.0.0.0/8', '6.6.6.6, 203.0.113.7, 10.0.0.2')).toBe('203.0.113.7');
    expect(await ipWith(undefined, '6.6.6.6')).toBe('10.0.0.1');
  });
});
