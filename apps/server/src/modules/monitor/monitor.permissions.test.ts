import { afterAll, beforeAll, expect, it } from 'vitest';
import { MSG, P, rolesRoutes, usersRoutes } from '@stadiumcam/contract';
import { describeEachDb } from '../../test/harness.ts';
import { SocketPool, ask, listenUrl } from '../../test/realtime.ts';

// Issue 16 §9: the monitor's ban follows the album's ban permission; sockets follow role edits.
describeEachDb('monitor socket permissions', (t) => {
  let url = '';
  const pool = new SocketPool(() => url);
  beforeAll(async () => {
    url = await listenUrl(t());
  });
  afterAll(() => pool.closeAll());

  it('ban user needs what PUT /api/snapshots/ban needs; boot user stays with Monitor:read', async () => {
    const watcher = await t().userWith([P.MONITOR_READ]);
    const socket = await pool.console(watcher.cookie);
    expect(await ask(socket, 'ban user', { userId: 'fan-1' })).toEqual({
      ok: false,
      error: MSG.common.insufficientPermissions,
    });
    expect(await ask(socket, 'boot user', { userId: 'fan-1' })).toEqual({ ok: true });
    for (const perm of [P.BAN_PHOTO_USER, P.PHOTOS_WRITE, P.EVENT_USERS_WRITE]) {
      const banner = await t().userWith([P.MONITOR_READ, perm]);
      expect(await ask(await pool.console(banner.cookie), 'ban user', { userId: 'fan-2' }), perm).toEqual({ ok: true });
    }
  });

  it('an open socket loses a permission when its role is changed or deleted', async () => {
    const admin = await t().adminCookie();
    const saveRole = (permissions: string[], isNew = false) =>
      t().call(rolesRoutes.save, {
        cookie: admin,
        params: { name: 'night-watch' },
        body: { permissions, isNew } as any,
      });
    expect((await saveRole([P.MONITOR_READ], true)).status).toBe(200);
    const created = await t().call(usersRoutes.create, {
      cookie: admin,
      body: { username: 'night-operator', email: 'n@example.com', password: 'night-password', roles: ['night-watch'] },
    });
    expect(created.status).toBe(200);
    const cookie = await t().login('night-operator', 'night-password');

    const socket = await pool.console(cookie);
    expect((await ask(socket, 'getInitTotalQueue')).ok).toBe(true);
    const closed = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    expect((await saveRole([])).status).toBe(200);
    expect(await closed).toBe('io server disconnect');
    // Reconnecting (as the console does) gives the role's new permissions.
    const again = await pool.console(cookie);
    expect(await ask(again, 'getInitTotalQueue')).toEqual({ ok: false, error: MSG.common.insufficientPermissions });

    expect((await saveRole([P.MONITOR_READ])).status).toBe(200);
    const third = await pool.console(cookie);
    expect((await ask(third, 'getInitTotalQueue')).ok).toBe(true);
    const gone = new Promise<string>((resolve) => third.once('disconnect', resolve));
    expect((await t().call(rolesRoutes.remove, { cookie: admin, params: { name: 'night-watch' } })).status).toBe(204);
    expect(await gone).toBe('io server disconnect');
    const fourth = await pool.console(cookie);
    expect(await ask(fourth, 'getInitTotalQueue')).toEqual({ ok: false, error: MSG.common.insufficientPermissions });
  });
});
