import { z } from 'zod';
import { ErrorBodySchema, MSG, PERMISSION_TREE, type PermissionNode, type RouteDef } from '@stadiumcam/contract';
import { contractRoutes, type ContractRoute } from '../../contract-routes.ts';
import { DATABASE_RETRY_AFTER_SECONDS } from '../../plugins/errors.ts';

/**
 * The OpenAPI 3.1 document of the HTTP API, generated from the contract on each start (docs/api.md):
 * every route object of every `<area>Routes` map, with its access rule, its schemas (zod 4's
 * `z.toJSONSchema`, JSON Schema 2020-12 as OpenAPI 3.1 takes it) and the errors its
 * declaration implies. Nothing is written by hand, so it cannot drift from what the server
 * registers; `openapi.test.ts` holds that.
 */

type JsonSchema = Record<string, unknown>;
type Operation = Record<string, unknown>;

/** `/api/users/:id` → `/api/users/{id}`. */
export const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

const descriptions = new Map<string, string>();
const walk = (nodes: PermissionNode[]) => {
  for (const n of nodes) {
    descriptions.set(n.name, n.description);
    walk(n.children);
  }
};
walk(PERMISSION_TREE);

/**
 * A schema as JSON Schema: what a client sends (`input`: before defaults and transforms) or
 * receives (`output`). Parts JSON Schema cannot say (a transform's result, a preprocess) read
 * as "any". Definitions of recursive schemas move to `components.schemas`.
 */
function toSchema(schema: z.ZodType, io: 'input' | 'output', defs: Record<string, JsonSchema>, id: string) {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  delete json.$schema;
  const local = json.$defs as Record<string, JsonSchema> | undefined;
  if (!local) return json;
  delete json.$defs;
  const prefix = `${id}.`;
  for (const [name, def] of Object.entries(local)) defs[prefix + name] = def;
  return JSON.parse(JSON.stringify(json).replaceAll('"#/$defs/', `"#/components/schemas/${prefix}`)) as JsonSchema;
}

/** Who may call it, in words, and the same as data (`x-access`). */
function access(def: RouteDef): { text: string; data: unknown; security: Record<string, string[]>[] } {
  if (def.public) return { text: 'Public: no session needed.', data: 'public', security: [] };
  if (def.device) {
    return {
      text: 'Camera hosts: `Authorization: Bearer <DEVICE_TOKEN>` (docs/protocol.md).',
      data: 'device',
      security: [{ deviceToken: [] }],
    };
  }
  if (def.permission === 'session') {
    return { text: 'Any logged-in user (the session cookie).', data: 'session', security: [{ session: [] }] };
  }
  const list = Array.isArray(def.permission) ? def.permission : [def.permission];
  const named = list.map((p) => `\`${p}\`${descriptions.has(p) ? ` (${descriptions.get(p)})` : ''}`);
  const rule = list.length === 1 ? 'the permission' : def.or ? 'any one of the permissions' : 'all of the permissions';
  return {
    text: `A session holding ${rule} ${named.join(', ')}.`,
    data: { [def.or ? 'anyOf' : 'allOf']: list },
    security: [{ session: [] }],
  };
}

const ref = (name: string) => ({ $ref: `#/components/responses/${name}` });

/** The errors a route's declaration implies; route-specific ones (404, 409, 422) are in docs/. */
function errors(def: RouteDef): Record<string, unknown> {
  const takesInput = !!(def.params || def.query || def.body || def.multipart);
  return {
    ...(takesInput ? { 400: ref('BadRequest') } : {}),
    ...(def.public ? {} : { 401: ref(def.device ? 'BadDeviceToken' : 'NotLoggedIn') }),
    ...(def.permission && def.permission !== 'session' ? { 403: ref('Forbidden') } : {}),
    ...(def.body || def.multipart ? { 413: ref('TooLarge') } : {}),
    ...(def.public || def.device ? { 429: ref('Throttled') } : {}),
    500: ref('InternalError'),
    503: ref('DatabaseUnavailable'),
  };
}

function parameters(def: RouteDef, defs: Record<string, JsonSchema>, id: string): unknown[] {
  const out: unknown[] = [];
  for (const [where, schema] of [
    ['path', def.params],
    ['query', def.query],
  ] as const) {
    if (!schema) continue;
    const json = toSchema(schema, 'input', defs, `${id}.${where}`);
    const required = new Set((json.required as string[] | undefined) ?? []);
    for (const [name, prop] of Object.entries((json.properties as Record<string, JsonSchema>) ?? {})) {
      out.push({ name, in: where, required: where === 'path' || required.has(name), schema: prop });
    }
  }
  // A path parameter the params schema does not name (a route without one) is still a string.
  for (const [, name] of def.path.matchAll(/:(\w+)/g)) {
    if (!out.some((p) => (p as { name: string; in: string }).name === name)) {
      out.push({ name, in: 'path', required: true, schema: { type: 'string' } });
    }
  }
  return out;
}

function operation({ area, name, def }: ContractRoute, defs: Record<string, JsonSchema>): Operation {
  const id = `${area}.${name}`;
  const who = access(def);
  const params = parameters(def, defs, id);
  const body = def.multipart
    ? {
        required: true,
        content: {
          'multipart/form-data': {
            schema: def.body ? toSchema(def.body, 'input', defs, `${id}.body`) : { type: 'object' },
          },
        },
      }
    : def.body
      ? { required: true, content: { 'application/json': { schema: toSchema(def.body, 'input', defs, `${id}.body`) } } }
      : undefined;
  const ok = def.response
    ? {
        200: {
          description: 'OK',
          content: { 'application/json': { schema: toSchema(def.response, 'output', defs, `${id}.response`) } },
        },
      }
    : { '2XX': { description: 'No content (204), or a file or stream this route sends (see docs/).' } };
  return {
    operationId: id,
    tags: [area],
    summary: `${area} ${name}`,
    description: who.text,
    'x-access': who.data,
    security: who.security,
    ...(params.length ? { parameters: params } : {}),
    ...(body ? { requestBody: body } : {}),
    responses: { ...ok, ...errors(def) },
  };
}

const errorResponse = (description: string, headers?: Record<string, unknown>) => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

/** The whole document. `serverUrl`: where this server answers (PUBLIC_URL). */
export function buildOpenApi(serverUrl: string, routes = contractRoutes()): Record<string, unknown> {
  const defs: Record<string, JsonSchema> = {};
  const paths: Record<string, Record<string, Operation>> = {};
  for (const route of routes) {
    const path = openApiPath(route.def.path);
    (paths[path] ??= {})[route.def.method.toLowerCase()] = operation(route, defs);
  }
  const retryAfter = {
    'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer' } },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'StadiumCam console API',
      version: '1',
      description: [
        'Every route of the server, generated from its contract (`packages/contract`).',
        'The console logs in with `POST /api/users/login` and sends the `sid` cookie it gets;',
        'state-changing requests with a session must come from the server’s own origin (`Origin`).',
        'Camera hosts send their device token as a bearer token. Every error answers',
        '`{ "error": "<text>", "details"?: [...] }` with the texts of the message catalogue.',
      ].join(' '),
    },
    servers: [{ url: serverUrl }],
    tags: [...new Set(routes.map((r) => r.area))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'sid', description: 'The session cookie of a login.' },
        deviceToken: { type: 'http', scheme: 'bearer', description: 'DEVICE_TOKEN, for camera hosts.' },
      },
      schemas: {
        Error: toSchema(ErrorBodySchema, 'output', defs, 'Error'),
        ...defs,
      },
      responses: {
        BadRequest: errorResponse(
          `Bad input: the first problem in \`error\` (\`${MSG.common.invalidRequest('field', 'problem')}\`), each in \`details\`; NUL and bidi override characters are refused anywhere. Nothing is written.`,
        ),
        NotLoggedIn: errorResponse(`No live session: \`${MSG.auth.notLoggedIn}\`.`),
        BadDeviceToken: errorResponse(`A missing or wrong device token: \`${MSG.devices.invalidDeviceToken}\`.`),
        Forbidden: errorResponse(`The session lacks the permission: \`${MSG.common.insufficientPermissions}\`.`),
        TooLarge: errorResponse(
          `A file above its size limit, or too many files; a body over its route's limit (1 MB; 16 KB on /api/public): \`${MSG.common.bodyTooLarge(16)}\`.`,
        ),
        Throttled: errorResponse('Too many requests from this client (docs/security.md).', retryAfter),
        InternalError: errorResponse(`\`${MSG.common.internalError}\`: no stack, ever.`),
        DatabaseUnavailable: errorResponse(
          `The database is away: \`${MSG.common.databaseUnavailable}\`; try again after ${DATABASE_RETRY_AFTER_SECONDS} s.`,
          retryAfter,
        ),
      },
    },
  };
}
