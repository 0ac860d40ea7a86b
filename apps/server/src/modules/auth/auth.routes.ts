import { authRoutes } from '@stadiumcam/contract';
import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { registerRoute } from '../../plugins/routes.ts';
import { clearSessionCookie, readSessionCookie, setSessionCookie } from '../../plugins/session.ts';
import { endSession } from './auth.sessions.ts';
import { confirmPasswordReset, login, requestPasswordReset, sessionUserOf } from './auth.service.ts';

export function registerAuthRoutes(app: App, deps: Deps): void {
  registerRoute(app, authRoutes.session, async ({ user }) => sessionUserOf(user));
  // The console's quiet check: nobody logged in is an answer, not an error (issue 28 point 7).
  registerRoute(app, authRoutes.sessionProbe, async ({ req }) => ({ user: req.user ? sessionUserOf(req.user) : null }));

  registerRoute(app, authRoutes.login, async ({ body, req, reply }) => {
    const { user, sid } = await login(deps, { ...body, ip: req.ip, previousSid: readSessionCookie(req) });
    setSessionCookie(req, reply, sid);
    return user;
  });

  registerRoute(app, authRoutes.logout, async ({ req, reply }) => {
    await endSession(deps, readSessionCookie(req));
    clearSessionCookie(reply);
    return undefined;
  });

  registerRoute(app, authRoutes.resetRequest, async ({ body, req }) => {
    await requestPasswordReset(deps, req.ip, body.email);
    return { ok: true as const };
  });

  registerRoute(app, authRoutes.resetConfirm, async ({ body }) => {
    await confirmPasswordReset(deps, body.token);
    return { ok: true as const };
  });
}
