/**
 * The contract without zod (`@stadiumcam/contract/lite`), for what the console loads before and
 * with its shell, and the attendee app's routes (`attendee-routes.ts`): login + shell must stay within 250 KiB gzip (issue 10 point 7), and zod with
 * the contract's schemas is about 44 KiB of it. Texts, constants, permissions, the path helpers,
 * every type, and the routes the shell calls (session, login, logout, the roles list, events)
 * with their method, path and access only. The console's `api()` reads a route's method and path
 * and nothing else; a route's schemas are its types here (a call is typed exactly as with the
 * full contract) and absent at run time. The server validates every request with the full
 * contract. Screens loaded later import the full contract as they like.
 *
 * The compiler checks each route below against the full one (same method, path and access, no
 * route left out), and lite.test.ts compares them at run time.
 */
import type { RouteDef } from './route.ts';
import type { authRoutes as AuthRoutes } from './auth.contract.ts';
import type { rolesRoutes as RolesRoutes } from './roles.contract.ts';
import type { eventsRoutes as EventsRoutes } from './events.contract.ts';
import { P } from './permissions.ts';

export * from './permissions.ts';
export * from './constants.ts';
export * from './messages.ts';
// paths.ts, not route.ts: route.ts defines zod schemas too.
export * from './paths.ts';
// The attendee app's routes, lite too (the app imports that file alone: see there). Named:
// they win over the schema-typed names of `export type *` below.
export { attendeeAppRoutes, attendeeRoutes, pageViewRoute, publicTriviaRoute } from './attendee-routes.ts';

export type * from './route.ts';
export type * from './socket-events.ts';
export type * from './auth.contract.ts';
export type * from './users.contract.ts';
export type * from './roles.contract.ts';
export type * from './snapshots.contract.ts';
export type * from './events.contract.ts';
export type * from './cameras.contract.ts';
export type * from './notifications.contract.ts';
export type * from './devices.contract.ts';
export type * from './analytics.contract.ts';
export type * from './template.contract.ts';
export type * from './attendee-app.contract.ts';
export type * from './slideshow.contract.ts';
export type * from './template-parts.contract.ts';
export type * from './mapping.contract.ts';
export type * from './camera-configs.contract.ts';
export type * from './ops.contract.ts';
export type * from './audit.contract.ts';

/** The keys of a route that hold schemas: types only in this entry. */
export type SchemaKey = 'params' | 'query' | 'body' | 'response';

/** A contract route without its schemas: what `route()` is given. */
export type RouteWithoutSchemas<R extends RouteDef> = Omit<R, SchemaKey>;

/** A route of the full contract `R`, given its method, path and access (checked against R's). */
const route = <R extends RouteDef>(def: RouteWithoutSchemas<R>) => def as R;

export const authRoutes: typeof AuthRoutes = {
  session: route({ method: 'GET', path: '/api/users/user', permission: 'session' }),
  sessionProbe: route({ method: 'GET', path: '/api/users/session', public: true }),
  login: route({ method: 'POST', path: '/api/users/login', public: true, audit: 'auth.login' }),
  logout: route({ method: 'POST', path: '/api/users/logout', public: true, audit: 'auth.logout' }),
  resetRequest: route({ method: 'POST', path: '/api/users/resetPasswordEmail', public: true }),
  resetConfirm: route({ method: 'POST', path: '/api/users/resetPassword', public: true, audit: 'auth.passwordReset' }),
};

export const rolesRoutes: typeof RolesRoutes = {
  list: route({ method: 'GET', path: '/api/roles', permission: [P.ROLES_READ, P.USERS], or: true }),
  save: route({ method: 'POST', path: '/api/roles/:name', permission: P.ROLES_WRITE, audit: 'role.save' }),
  remove: route({ method: 'DELETE', path: '/api/roles/:name', permission: P.ROLES_WRITE, audit: 'role.delete' }),
};

export const eventsRoutes: typeof EventsRoutes = {
  list: route({ method: 'GET', path: '/api/events', permission: 'session' }),
  current: route({ method: 'GET', path: '/api/events/stadiumcam', permission: 'session' }),
  get: route({ method: 'GET', path: '/api/event/:slugDate', permission: 'session' }),
  create: route({
    method: 'POST',
    path: '/api/events',
    permission: [P.EVENT_WRITE, P.DAY_CLICK_CREATE_EVENT],
    audit: 'event.create',
  }),
  update: route({
    method: 'PUT',
    path: '/api/events',
    permission: [P.EVENT_WRITE, P.POWER_BTN, P.LIVE_METRIC],
    or: true,
    audit: 'event.update',
  }),
  remove: route({
    method: 'DELETE',
    path: '/api/events/:slugDate/delete/false',
    permission: [P.EVENT_WRITE, P.DELETE_EVENT],
    audit: 'event.delete',
  }),
  metrics: route({
    method: 'GET',
    path: '/api/events/metrics',
    permission: [P.LIVE_METRIC, P.MONITOR_READ],
    or: true,
  }),
};
