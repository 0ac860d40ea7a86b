import { defineRoute } from './route.ts';

/**
 * The API's own description (docs/api.md): an OpenAPI 3.1 document generated from this
 * contract, and a page that reads it for people. Public: it names routes and rules, no data.
 */
export const docsRoutes = {
  page: defineRoute({ method: 'GET', path: '/api/docs', public: true, response: null }),
  openapi: defineRoute({ method: 'GET', path: '/api/docs/openapi.json', public: true, response: null }),
};
