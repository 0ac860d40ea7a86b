import { z } from 'zod';
import type { Permission } from './permissions.ts';
import type { MSG } from './messages.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call a route. `'session'` = any logged-in user. A list needs all of its
 * permissions, or any one of them when `or` is set. `public: true` needs nothing.
 */
/** `device: true`: camera hosts call it with their device token instead of a session. */
export type Access =
  | { public: true; permission?: never; device?: never }
  | { device: true; public?: never; permission?: never }
  | { permission: Permission | Permission[] | 'session'; or?: boolean; public?: never; device?: never };

/** One endpoint, defined once: the server registers it, the console and simulator call it. */
export type RouteDef = Access & {
  method: HttpMethod;
  /** Fastify path syntax, including the /api base: `/api/users/:id`. */
  path: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Schema of the 200 answer; `null` when the route answers 204 or a stream/file. */
  response: z.ZodType | null;
  /** multipart/form-data upload (body is not JSON and is read by the handler). */
  multipart?: true;
  /**
   * The audit log's action kind (docs/audit.md): set on every route that changes something or
   * lets data leave; the server records each call, done or refused, with who, ids and address.
   */
  audit?: keyof typeof MSG.auditActions;
};

export const defineRoute = <const T extends RouteDef>(def: T): T => def;

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;
type In<S> = S extends z.ZodType ? z.input<S> : undefined;
export type RouteParams<R extends RouteDef> = Out<R['params']>;
export type RouteQuery<R extends RouteDef> = Out<R['query']>;
export type RouteBody<R extends RouteDef> = Out<R['body']>;
export type RouteResponse<R extends RouteDef> = R['response'] extends z.ZodType ? z.output<R['response']> : void;
export type RouteInput<R extends RouteDef> = {
  params: In<R['params']>;
  query: In<R['query']>;
  body: In<R['body']>;
};

export { buildPath, parseQuery, toQueryString } from './paths.ts';

/** Every error answer: status + { error, details? } (DESIGN §4). */
export const ErrorBodySchema = z.object({ error: z.string(), details: z.array(z.unknown()).optional() });
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

export const OkSchema = z.object({ ok: z.literal(true) });

/** A query value that may come once or repeated: always an array afterwards. */
export const queryList = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]), z.array(item));

/** Query booleans arrive as strings. */
export const queryBool = z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean());

/**
 * Characters no input may carry (docs/security.md): NUL (PostgreSQL text refuses it, and it
 * cuts strings in C code) and the bidi overrides and isolates that make a name display as
 * something else (U+202A-U+202E, U+2066-U+2069).
 */
// eslint-disable-next-line no-control-regex -- finding NUL is the point
const FORBIDDEN_CHARS = /[\u0000\u202A-\u202E\u2066-\u2069]/;

/** True when any string (or key) inside the value holds a forbidden character (binary data holds none). */
export function hasForbiddenChars(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return FORBIDDEN_CHARS.test(value);
  if (depth > 20 || value === null || typeof value !== 'object') return false;
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return false;
  if (Array.isArray(value)) return value.some((v) => hasForbiddenChars(v, depth + 1));
  return Object.entries(value).some(([k, v]) => FORBIDDEN_CHARS.test(k) || hasForbiddenChars(v, depth + 1));
}
