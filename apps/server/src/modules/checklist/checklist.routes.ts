import { checklistRoutes } from '@stadiumcam/contract';
import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { registerRoute } from '../../plugins/routes.ts';
import { computeChecklist } from './checklist.service.ts';

export function registerChecklistRoutes(app: App, deps: Deps): void {
  registerRoute(app, checklistRoutes.get, async ({ params }) => computeChecklist(deps, params.slugDate));
}
