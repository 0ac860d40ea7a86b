import { expect, it } from 'vitest';
import { ADMIN_ROLE, ALL_PERMISSIONS, MSG, P, rolesRoutes, usersRoutes } from '@stadiumcam/contract';
import { describeEachDb } from '../../test/harness.ts';

describeEachDb('roles', (t) => {
  const admin = () => t().adminCookie();
  const roles = async () => (await t().call(rolesRoutes.list, { cookie: await admin() })).body as any[];
  const save = async (name: string, body: unknown, cookie?: string) =>
    t().call(rolesRoutes.save, { cookie: cookie ?? (await admin()), params: { name }, body: body as any });

  it('lists the admin role first, read-only with every permission, then the others by name', async () => {
    for (const name of ['zeta', 'Alpha', 'mid'])
      expect((await save(name, { permissions: [], isNew: true })).status).toBe(200);
    const list = await roles();
    expect(list[0]).toEqual({ name: ADMIN_ROLE, permissions: ALL_PERMISSIONS, readonly: true });
    const ours = list.map((r) => r.name).filter((n) => ['zeta', 'Alpha', 'mid'].includes(n));
    expect(ours).toEqual(['Alpha', 'mid', 'zeta']);
    const names = list.slice(1).map((r) => r.name.toLowerCase());
    expect(names).toEqual([...names].sort());
    expect(list.find((r) => r.name === 'mid')).toEqual({ name: 'mid', permissions: [], readonly: false });
  });

  it('stores a role with its permissions normalised: parents added, in tree order', async () => {
    const res = await save('moderator', { permissions: [P.MAGICSHOTS_WRITE, P.ROLES_WRITE, P.USERS], isNew: true });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      name: 'moderator',
      permissions: [P.MONITOR_READ, P.MAGICSHOTS_WRITE, P.ROLES_READ, P.ROLES_WRITE, P.USERS],
      readonly: false,
    });
    expect((await roles()).find((r) => r.name === 'moderator')).toEqual(res.body);

    // Save without isNew updates it; duplicates collapse.
    const update = await save('moderator', { permissions: [P.EVENT_USERS_WRITE, P.EVENT_USERS_WRITE] });
    expect(update.body.permissions).toEqual([P.EVENT_USERS_READ, P.EVENT_USERS_WRITE]);
    // In any case of the name, the existing role is the one updated.
    const upper = await save('MODERATOR', { permissions: [P.CONFIG] });
    expect(upper.body).toEqual({ name: 'moderator', permissions: [P.CONFIG], readonly: false });
    expect((await roles()).filter((r) => r.name.toLowerCase() === 'moderator')).toHaveLength(1);
  });

  it('refuses a new role whose name exists in any case with 409 "Role already exists"', async () => {
    await save('unique-role', { permissions: [P.CONFIG], isNew: true });
    const before = await roles();
    for (const name of ['unique-role', 'Unique-Role', ' UNIQUE-ROLE ', 'admin', 'Admin']) {
      const res = await save(name, { permissions: [P.USERS], isNew: true });
      expect(res.status, name).toBe(409);
      expect(res.body).toEqual({ error: MSG.roles.roleExistsTitle });
    }
    expect(await roles()).toEqual(before);
  });

  it('never changes or deletes the admin role', async () => {
    const before = await roles();
    const change = await save('admin', { permissions: [P.USERS] });
    expect(change.status).toBe(422);
    expect(change.body).toEqual({ error: MSG.roles.adminImmutable });
    const del = await t().call(rolesRoutes.remove, { cookie: await admin(), params: { name: 'admin' } });
    expect(del.status).toBe(422);
    expect(del.body).toEqual({ error: MSG.roles.adminUndeletable });
    expect(await roles()).toEqual(before);
  });

  it('refuses bad input with a clear 400 and stores nothing', async () => {
    await save('steady', { permissions: [P.CONFIG], isNew: true });
    const before = await roles();
    const cases: [string, unknown, string][] = [
      ['steady', { permissions: ['Bogus:write'] }, MSG.roles.unknownPermission('Bogus:write')],
      ['steady', { permissions: [P.USERS, 'users'] }, MSG.roles.unknownPermission('users')],
      ['steady', {}, 'permissions'],
      ['steady', { permissions: P.USERS }, 'permissions'],
      ['steady', { permissions: [], isNew: 'yes' }, 'isNew'],
      ['steady', { permissions: [], color: 'red' }, 'color'],
      ['brand-new', { permissions: ['Nope'], isNew: true }, MSG.roles.unknownPermission('Nope')],
      ['x'.repeat(51), { permissions: [], isNew: true }, 'at most 50'],
      ['bad*name', { permissions: [], isNew: true }, 'Role name may only contain'],
      ['   ', { permissions: [], isNew: true }, 'Role name is required'],
    ];
    for (const [name, body, text] of cases) {
      const res = await save(name, body);
      expect(res.status, `${name} ${JSON.stringify(body)}`).toBe(400);
      expect(res.body.error, `${name} ${JSON.stringify(body)}`).toContain(text);
    }
    const malformed = await t().app.inject({
      method: 'POST',
      url: '/api/roles/steady',
      headers: {
        host: 'localhost',
        origin: 'http://localhost',
        cookie: await admin(),
        'content-type': 'application/json',
      },
      payload: '{"permissions": [',
    });
    expect(malformed.statusCode).toBe(400);
    expect(JSON.parse(malformed.body).error).toBe('Invalid request: malformed JSON');
    expect(await roles()).toEqual(before);
  });

  it('deletes a role and takes it off the users holding it; 404 for an unknown role', async () => {
    const cookie = await admin();
    await save('temporary', { permissions: [P.CONFIG], isNew: true });
    await save('lasting', { permissions: [P.USERS], isNew: true });
    const user = await t().call(usersRoutes.create, {
      cookie,
      body: {
        username: 'role-holder',
        email: 'rh@example.com',
        password: 'secret-pw',
        roles: ['temporary', 'lasting'],
      },
    });
    expect(user.status).toBe(200);

    const del = await t().call(rolesRoutes.remove, { cookie, params: { name: 'temporary' } });
    expect(del.status).toBe(204);
    expect((await roles()).some((r) => r.name === 'temporary')).toBe(false);
    const users = (await t().call(usersRoutes.list, { cookie })).body as any[];
    expect(users.find((u) => u.username === 'role-holder').roles).toEqual(['lasting']);

    const again = await t().call(rolesRoutes.remove, { cookie, params: { name: 'temporary' } });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ error: MSG.roles.roleNotFound });
  });

  it('applies a role edit at once to the users holding it', async () => {
    const cookie = await admin();
    await save('growing', { permissions: [], isNew: true });
    await t().call(usersRoutes.create, {
      cookie,
      body: { username: 'grower', email: 'g@example.com', password: 'secret-pw', roles: ['growing'] },
    });
    const theirs = await t().login('grower', 'secret-pw');
    expect((await t().call(usersRoutes.list, { cookie: theirs })).status).toBe(403);
    await save('growing', { permissions: [P.USERS] });
    expect((await t().call(usersRoutes.list, { cookie: theirs })).status).toBe(200);
    await t().call(rolesRoutes.remove, { cookie, params: { name: 'growing' } });
    expect((await t().call(usersRoutes.list, { cookie: theirs })).status).toBe(403);
  });

  it('lets Roles:read and Users read the list, and only Roles:write change roles', async () => {
    const reader = await t().userWith([P.ROLES_READ]);
    const usersAdmin = await t().userWith([P.USERS]);
    const nobody = await t().userWith([]);
    expect((await t().call(rolesRoutes.list, { cookie: reader.cookie })).status).toBe(200);
    expect((await t().call(rolesRoutes.list, { cookie: usersAdmin.cookie })).status).toBe(200);
    expect((await t().call(rolesRoutes.list, { cookie: nobody.cookie })).status).toBe(403);
    const denied = await save('reader-made', { permissions: [], isNew: true }, reader.cookie);
    expect(denied.status).toBe(403);
    expect((await roles()).some((r) => r.name === 'reader-made')).toBe(false);
    const writer = await t().userWith([P.ROLES_WRITE, P.CONFIG]);
    expect((await save('writer-made', { permissions: [P.CONFIG], isNew: true }, writer.cookie)).status).toBe(200);
    expect(
      (await t().call(rolesRoutes.remove, { cookie: writer.cookie, params: { name: 'writer-made' } })).status,
    ).toBe(204);
  });
});
