import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { authRoutes, rolesRoutes } from '@stadiumcam/contract/lite';
import { api, ApiError } from './api.ts';

/**
 * The console's HTTP client against a real HTTP server (spec 1 §7, 2 §7, 3 §7). The browser
 * resolves the client's relative URLs against the page; here the server's origin stands in for
 * it, and each call's fetch options are kept so the credentials mode can be read.
 */
const seen: { method: string; url: string; headers: IncomingHttpHeaders }[] = [];
/** What the server answers per path: status and JSON body (none for a 204). */
const answers = new Map<string, [number, unknown?]>();
const inits: RequestInit[] = [];
const server = createServer((req, res) => {
  seen.push({ method: req.method!, url: req.url!, headers: req.headers });
  const [status, body] = answers.get(req.url!) ?? [404];
  res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' });
  res.end(body === undefined ? undefined : JSON.stringify(body));
});
const realFetch = globalThis.fetch;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  globalThis.fetch = (input, init) => {
    inits.push(init ?? {});
    return realFetch(new URL(String(input), origin), init);
  };
});
afterAll(() => {
  globalThis.fetch = realFetch;
  server.close();
});

it('sends the session cookie and asks for JSON; an error raises its status and body; a 204 gives nothing', async () => {
  answers.set('/api/roles', [200, [{ name: 'admin', permissions: [] }]]);
  answers.set('/api/users/user', [401, { error: 'Not logged in' }]);
  answers.set('/api/users/logout', [204]);

  expect(await api(rolesRoutes.list)).toEqual([{ name: 'admin', permissions: [] }]);
  expect(seen.at(-1)!.headers.accept).toBe('application/json');
  expect(inits.at(-1)!.credentials).toBe('same-origin');

  const refused = await api(authRoutes.session).catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(ApiError);
  expect((refused as ApiError).status).toBe(401);
  expect((refused as ApiError).body).toEqual({ error: 'Not logged in' });
  expect((refused as ApiError).message).toBe('Not logged in');

  expect(await api(authRoutes.logout)).toBeUndefined();
  expect(seen.at(-1)).toMatchObject({ method: 'POST', url: '/api/users/logout' });
  expect(inits.at(-1)!.credentials).toBe('same-origin');
});
