import { docsRoutes } from '@stadiumcam/contract';
import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { registerRoute } from '../../plugins/routes.ts';
import { renderApiPage } from './docs.page.ts';
import { buildOpenApi } from './openapi.ts';

/** The API's description: built once per start from the contract (docs/api.md). */
export function registerDocs(app: App, deps: Deps): void {
  const doc = buildOpenApi(deps.config.publicUrl);
  const body = JSON.stringify(doc);
  const page = renderApiPage(doc as Parameters<typeof renderApiPage>[0]);
  registerRoute(app, docsRoutes.openapi, async ({ reply }) => {
    void reply.header('cache-control', 'no-cache').type('application/json; charset=utf-8').send(body);
  });
  registerRoute(app, docsRoutes.page, async ({ reply }) => {
    void reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(page);
  });
}
