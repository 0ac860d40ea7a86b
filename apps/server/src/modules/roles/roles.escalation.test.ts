import { expect, it } from 'vitest';
import { MSG, P, rolesRoutes, usersRoutes } from '@stadiumcam/contract';
import { describeEachDb } from '../../test/harness.ts';

// Issue 16 §2: nobody grants a permission they do not hold.
describeEachDb('roles and users: no privilege escalation', (t) => {
  const admin = () => t().adminCookie();
  const saveRole = async (cookie: string, name: string, permissions: string[], isNew = false) =>
    t().call(rolesRoutes.save, { cookie, params: { name }, body: { permissions, isNew } as any });
  const roleOf = async (name: string) =>
    ((await t().call(rolesRoutes.list, { cookie: await admin() })).body as any[]).find((r) => r.name === name);
  const me = async () => (await t().call(usersRoutes.list, { cookie: await admin() })).body as any[];

  it('a Roles:write holder cannot give their own role (or any role) a permission they lack', async () => {
    const writer = await t().userWith([P.ROLES_WRITE, P.CONFIG]);
    // The test role is read-only; give the writer an editable role of their own.
    await saveRole(await admin(), 'writers', [P.ROLES_WRITE, P.CONFIG], true);
    const id = (await me()).find((u) => u.username === writer.username)._id as string;
    const assign = await t().call(usersRoutes.update, {
      cookie: await admin(),
      params: { id },
      body: { _id: id, roles: ['writers'] },
    });
    expect(assign.status).toBe(200);
    writer.cookie = await t().login(writer.username, 'user-test-password');
    const all = Object.values(P);
    const self = await saveRole(writer.cookie, 'writers', all);
    expect(self.status).toBe(403);
    expect((await roleOf('writers')).permissions).toEqual([P.ROLES_READ, P.ROLES_WRITE, P.CONFIG]);

    const create = await saveRole(writer.cookie, 'sneaky', [P.CONFIG, P.MONITOR_READ], true);
    expect(create.status).toBe(403);
    expect(create.body).toEqual({ error: MSG.roles.cannotGrant(P.MONITOR_READ) });
    expect(await roleOf('sneaky')).toBeUndefined();

    // Granting what they hold is fine.
    expect((await saveRole(writer.cookie, 'config-only', [P.CONFIG], true)).status).toBe(200);
  });

  it('only a holder of every permission changes or deletes a role holding Roles:write or Users', async () => {
    await saveRole(await admin(), 'user-managers', [P.USERS], true);
    await saveRole(await admin(), 'role-managers', [P.ROLES_WRITE], true);
    // Holds Roles:write and Users but not everything.
    const strong = await t().userWith([P.ROLES_WRITE, P.USERS, P.CONFIG]);
    for (const name of ['user-managers', 'role-managers']) {
      const edit = await saveRole(strong.cookie, name, []);
      expect(edit.status, name).toBe(403);
      expect(edit.body).toEqual({ error: MSG.roles.onlyFullHolderEditsManagers });
      const del = await t().call(rolesRoutes.remove, { cookie: strong.cookie, params: { name } });
      expect(del.status, name).toBe(403);
      expect(await roleOf(name)).toBeDefined();
    }
    const create = await saveRole(strong.cookie, 'new-managers', [P.USERS], true);
    expect(create.status).toBe(403);
    // An administrator may.
    expect((await saveRole(await admin(), 'user-managers', [P.CONFIG])).status).toBe(200);
  });

  it('a Users holder cannot give anyone (themselves included) a role with permissions they lack', async () => {
    await saveRole(await admin(), 'role-editors', [P.ROLES_WRITE], true);
    await saveRole(await admin(), 'configurers', [P.CONFIG], true);
    const manager = await t().userWith([P.USERS, P.CONFIG]);
    const users = await me();
    const self = users.find((u) => u.username === manager.username);

    const toSelf = await t().call(usersRoutes.update, {
      cookie: manager.cookie,
      params: { id: self._id },
      body: { _id: self._id, roles: [...self.roles, 'role-editors'] },
    });
    expect(toSelf.status).toBe(403);

    const create = await t().call(usersRoutes.create, {
      cookie: manager.cookie,
      body: { username: 'escalator', email: 'e@example.com', password: 'secret-password', roles: ['role-editors'] },
    });
    expect(create.status).toBe(403);
    expect(create.body).toEqual({ error: MSG.roles.cannotGrant(P.ROLES_READ) });
    expect((await me()).some((u) => u.username === 'escalator')).toBe(false);

    // A role within what they hold can be given to another user.
    const ok = await t().call(usersRoutes.create, {
      cookie: manager.cookie,
      body: { username: 'configurer', email: 'c@example.com', password: 'secret-password', roles: ['configurers'] },
    });
    expect(ok.status).toBe(200);
    const other = ok.body;
    const giveEditor = await t().call(usersRoutes.update, {
      cookie: manager.cookie,
      params: { id: other._id },
      body: { _id: other._id, roles: ['configurers', 'role-editors'] },
    });
    expect(giveEditor.status).toBe(403);
    expect((await me()).find((u) => u._id === other._id).roles).toEqual(['configurers']);
  });

  it('nobody changes the roles of their own user, not even to fewer', async () => {
    await saveRole(await admin(), 'configurers2', [P.CONFIG], true);
    const manager = await t().userWith([P.USERS, P.CONFIG]);
    const self = (await me()).find((u) => u.username === manager.username);
    const res = await t().call(usersRoutes.update, {
      cookie: manager.cookie,
      params: { id: self._id },
      body: { _id: self._id, roles: ['configurers2'] },
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: MSG.users.cannotChangeOwnRoles });
    // Other fields of one's own user still change.
    const email = await t().call(usersRoutes.update, {
      cookie: manager.cookie,
      params: { id: self._id },
      body: { _id: self._id, email: 'new@example.com', roles: self.roles },
    });
    expect(email.status).toBe(200);
  });
});
