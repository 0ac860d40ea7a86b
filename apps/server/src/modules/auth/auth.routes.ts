import { authRoutes } from '@stadiumcam/contract';
import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { registerRoute } from '../../plugins/routes.ts';
import { endSession } from '../../plugins/session.ts';
import { confirmPasswordReset, login, requestPasswordReset, sessionUserOf } from './auth.service.ts';

export function authModule(app: App, deps: Deps): void {
  registerRoute(app, authRoutes.session, async ({ user }) => sessionUserOf(user));

  registerRoute(app, authRoutes.login, async ({ body, req, reply }) => login(deps, req, reply, body));

  registerRoute(app, authRoutes.logout, async ({ req, reply }) => {
    await endSession(deps, req, reply);
    return undefined;
  });

  registerRoute(app, authRoutes.resetRequest, async ({ body, req }) => {
    await requestPasswordReset(deps, req, body.email);
    return { ok: true as const };
  });

  registerRoute(app, authRoutes.resetConfirm, async ({ body, req }) => {
    await confirmPasswordReset(deps, req, body.token);
    return { ok: true as const };
  });
}
