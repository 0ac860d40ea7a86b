import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import {
  attendeeRoutes,
  authRoutes,
  devicesRoutes,
  eventsRoutes,
  rolesRoutes,
  usersRoutes,
  type RouteDef,
} from '@stadiumcam/contract';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { contractRoutes } from '../../contract-routes.ts';
import { openApiPath } from './openapi.ts';

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, any>>;
  components: { schemas: Record<string, unknown> };
};

/** What the document must say of a route's access, from its declaration. */
const expectedAccess = (def: RouteDef) =>
  def.public
    ? { access: 'public', security: [] }
    : def.device
      ? { access: 'device', security: [{ deviceToken: [] }] }
      : def.permission === 'session'
        ? { access: 'session', security: [{ session: [] }] }
        : {
            access: {
              [def.or ? 'anyOf' : 'allOf']: Array.isArray(def.permission) ? def.permission : [def.permission],
            },
            security: [{ session: [] }],
          };

// Issue 28 §9: the API described from the contract, served, and checked so it cannot drift.
describe('the OpenAPI document (/api/docs)', () => {
  let t: TestApp;
  let doc: Doc;
  beforeAll(async () => {
    t = await createTestApp('pglite');
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    doc = res.json();
  });
  afterAll(async () => {
    await t?.close();
  });
  const op = (def: RouteDef) => doc.paths[openApiPath(def.path)]?.[def.method.toLowerCase()];

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it('holds every route the server registers and every route of the contract, once each, and nothing else', () => {
    const described = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`),
    );
    const registered = t.app.routeDefs.map((d) => `${d.method} ${openApiPath(d.path)}`);
    const declared = contractRoutes().map(({ def }) => `${def.method} ${openApiPath(def.path)}`);
    expect(new Set(described).size).toBe(described.length);
    expect([...described].sort()).toEqual([...registered].sort());
    expect([...described].sort()).toEqual([...declared].sort());
    expect(described.length).toBeGreaterThan(100);
  });

  it('states each route’s access rule as declared: permission, session, device token or public', () => {
    for (const { area, name, def } of contractRoutes()) {
      const o = op(def);
      const want = expectedAccess(def);
      expect(o.operationId).toBe(`${area}.${name}`);
      expect(o['x-access'], o.operationId).toEqual(want.access);
      expect(o.security, o.operationId).toEqual(want.security);
    }
    expect(op(usersRoutes.update).description).toMatch(/^A session holding the permission `Users`/);
  });

  it('lists the errors each declaration implies', () => {
    const statuses = (def: RouteDef) => Object.keys(op(def).responses).sort();
    // Input, session, permission: 400, 401, 403; every route: 500 and 503.
    expect(statuses(usersRoutes.update)).toEqual(['200', '400', '401', '403', '413', '500', '503']);
    expect(statuses(usersRoutes.list)).toEqual(['200', '401', '403', '500', '503']);
    expect(statuses(authRoutes.session)).toEqual(['200', '401', '500', '503']);
    // Public routes are throttled and need no session.
    expect(statuses(attendeeRoutes.event)).toEqual(['200', '400', '429', '500', '503']);
    // Camera hosts: the device token; an upload may be too large.
    const upload = Object.values(devicesRoutes).find((d: RouteDef) => d.multipart) as RouteDef;
    expect(op(upload).responses['401']).toEqual({ $ref: '#/components/responses/BadDeviceToken' });
    expect(op(upload).responses['413']).toEqual({ $ref: '#/components/responses/TooLarge' });
    expect(op(upload).requestBody.content['multipart/form-data']).toBeDefined();
    expect(op(usersRoutes.remove).responses['2XX']).toBeDefined();
    const unavailable = (doc as any).components.responses.DatabaseUnavailable;
    expect(unavailable.headers['Retry-After']).toBeDefined();
  });

  it('describes bodies and answers with the contract’s schemas: the server’s own answers validate against them', async () => {
    const create = op(usersRoutes.create).requestBody.content['application/json'].schema;
    expect([...create.required].sort()).toEqual(['email', 'password', 'roles', 'username']);
    expect(op(usersRoutes.update).parameters).toEqual([
      expect.objectContaining({ name: 'id', in: 'path', required: true }),
    ]);
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema({ $id: 'doc', components: doc.components }, 'doc');
    const cookie = await t.adminCookie();
    for (const def of [
      usersRoutes.list,
      rolesRoutes.list,
      eventsRoutes.list,
      authRoutes.session,
      attendeeRoutes.event,
    ]) {
      const res = await t.call(def, { cookie });
      expect(res.status, def.path).toBe(200);
      const schema = JSON.parse(
        JSON.stringify(op(def).responses['200'].content['application/json'].schema).replaceAll(
          '"#/components/',
          '"doc#/components/',
        ),
      );
      const validate = ajv.compile(schema);
      expect(validate(res.body) ? [] : validate.errors, def.path).toEqual([]);
    }
    // And a wrong answer does not.
    const users = ajv.compile(op(usersRoutes.list).responses['200'].content['application/json'].schema);
    expect(users([{ username: 'x' }])).toBe(false);
  });

  it('serves a page for people: every route, no script, nothing from another origin', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toMatch(/script-src 'self'/);
    const html = res.body;
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//i);
    for (const { area, name } of contractRoutes()) expect(html).toContain(`id="${area}.${name}"`);
    expect(html).toContain('href="/api/docs/openapi.json"');
  });
});
