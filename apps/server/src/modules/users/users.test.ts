import { expect, it } from 'vitest';
import { ADMIN_ROLE, MSG, P, authRoutes, rolesRoutes, usersRoutes } from '@stadiumcam/contract';
import { ADMIN_PASSWORD, describeEachDb } from '../../test/harness.ts';

const PASSWORD = 'secret-pw-1';

describeEachDb('users', (t) => {
  const admin = () => t().adminCookie();
  const list = async () => (await t().call(usersRoutes.list, { cookie: await admin() })).body as any[];
  const create = async (body: Record<string, unknown>, cookie?: string) =>
    t().call(usersRoutes.create, { cookie: cookie ?? (await admin()), body: body as any });

  it('lists users with ISO dates, without password hashes', async () => {
    const res = await t().call(usersRoutes.list, { cookie: await admin() });
    expect(res.status).toBe(200);
    const me = res.body.find((u: any) => u.username === 'admin');
    expect(Object.keys(me).sort()).toEqual(['_id', 'createdAt', 'email', 'lastLogin', 'roles', 'username']);
    expect(me.roles).toEqual([ADMIN_ROLE]);
    expect(new Date(me.createdAt).toISOString()).toBe(me.createdAt);
    expect(new Date(me.lastLogin).toISOString()).toBe(me.lastLogin);
    expect(JSON.stringify(res.body)).not.toMatch(/argon2|password/i);
  });

  it('creates a user who can then log in; the username is lower-cased and trimmed', async () => {
    await t().call(rolesRoutes.save, {
      cookie: await admin(),
      params: { name: 'operator' },
      body: { permissions: [P.MONITOR_READ], isNew: true },
    });
    const res = await create({
      username: '  Operator1 ',
      email: 'op1@example.com',
      password: PASSWORD,
      roles: ['operator'],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      username: 'operator1',
      email: 'op1@example.com',
      roles: ['operator'],
      lastLogin: null,
    });
    expect(new Date(res.body.createdAt).toISOString()).toBe(res.body.createdAt);
    const cookie = await t().login('operator1', PASSWORD);
    const me = await t().call(authRoutes.session, { cookie });
    expect(me.body.permissions).toEqual([P.MONITOR_READ]);
    const listed = (await list()).find((u) => u.username === 'operator1');
    expect(listed.lastLogin).not.toBeNull();
  });

  it('tells whether a username exists', async () => {
    const cookie = await admin();
    expect((await t().call(usersRoutes.exists, { cookie, params: { username: 'admin' } })).body).toEqual({
      exists: true,
    });
    expect((await t().call(usersRoutes.exists, { cookie, params: { username: 'ADMIN' } })).body).toEqual({
      exists: true,
    });
    expect((await t().call(usersRoutes.exists, { cookie, params: { username: 'nobody-at-all' } })).body).toEqual({
      exists: false,
    });
  });

  it('refuses a taken username with 409 and the spec text', async () => {
    await create({ username: 'taken-name', email: 't@example.com', password: PASSWORD, roles: [] });
    const before = await list();
    for (const username of ['taken-name', 'TAKEN-NAME', ' taken-name']) {
      const res = await create({ username, email: 'other@example.com', password: PASSWORD, roles: [] });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: MSG.users.userNameTaken });
    }
    expect(await list()).toEqual(before);
  });

  it('refuses bad input with a clear 400 and stores nothing', async () => {
    const before = await list();
    const good = { username: 'gooduser', email: 'good@example.com', password: PASSWORD, roles: [] as string[] };
    const cases: [unknown, number, string][] = [
      [{ ...good, username: undefined }, 400, MSG.users.userNameRule],
      [{ ...good, username: '' }, 400, MSG.users.userNameRule],
      [{ ...good, username: 'short' }, 400, MSG.users.userNameRule],
      [{ ...good, username: '   abc   ' }, 400, MSG.users.userNameRule],
      [{ ...good, username: 'has space' }, 400, MSG.users.usernameChars],
      [{ ...good, username: 'tab\tname' }, 400, MSG.users.usernameChars],
      [{ ...good, username: 'x'.repeat(65) }, 400, 'at most 64'],
      [{ ...good, username: 42 }, 400, MSG.users.userNameRule],
      [{ ...good, password: '' }, 400, MSG.users.passwordRule],
      [{ ...good, password: '12345' }, 400, MSG.users.passwordRule],
      [{ ...good, password: undefined }, 400, MSG.users.passwordRule],
      [{ ...good, password: 'p'.repeat(201) }, 400, 'at most 200'],
      [{ ...good, email: undefined }, 400, MSG.users.emailRequired],
      [{ ...good, email: 'no-at-sign' }, 400, MSG.users.emailRequired],
      [{ ...good, email: `${'e'.repeat(320)}@example.com` }, 400, 'email'],
      [{ ...good, roles: undefined }, 400, 'roles'],
      [{ ...good, roles: 'admin' }, 400, 'roles'],
      [{ ...good, roles: ['ghost-role'] }, 400, MSG.users.unknownRole('ghost-role')],
      [{ ...good, roles: ['r'.repeat(101)] }, 400, 'roles'],
      [{ ...good, isAdmin: true }, 400, 'isAdmin'],
    ];
    for (const [body, status, text] of cases) {
      const res = await create(body as Record<string, unknown>);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.error, JSON.stringify(body)).toContain(text);
    }
    // The exact spec text also travels on its own in the details, for the form field.
    const short = await create({ ...good, username: 'short' });
    expect(short.body.details[0]).toMatchObject({ path: 'username', message: MSG.users.userNameRule });
    const unknownRole = await create({ ...good, roles: ['ghost-role'] });
    expect(unknownRole.body).toEqual({ error: 'Unknown role: ghost-role' });

    const malformed = await t().app.inject({
      method: 'POST',
      url: '/api/users',
      headers: {
        host: 'localhost',
        origin: 'http://localhost',
        cookie: await admin(),
        'content-type': 'application/json',
      },
      payload: '{"username": "gooduser",',
    });
    expect(malformed.statusCode).toBe(400);
    expect(JSON.parse(malformed.body).error).toBe('Invalid request: malformed JSON');

    expect(await list()).toEqual(before);
    expect(
      (await t().call(usersRoutes.exists, { cookie: await admin(), params: { username: 'gooduser' } })).body,
    ).toEqual({
      exists: false,
    });
  });

  it('updates email, roles and password; an empty or omitted password keeps the old one', async () => {
    const cookie = await admin();
    const made = await create({ username: 'editable', email: 'ed@example.com', password: PASSWORD, roles: [] });
    const id = made.body._id;

    const same = await t().call(usersRoutes.update, {
      cookie,
      params: { id },
      body: { _id: id, username: 'editable', email: 'ed2@example.com', password: '' },
    });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ _id: id, username: 'editable', email: 'ed2@example.com', roles: [] });
    await t().login('editable', PASSWORD);

    const roles = await t().call(usersRoutes.update, {
      cookie,
      params: { id },
      body: { _id: id, roles: ['operator'] },
    });
    expect(roles.body.roles).toEqual(['operator']);
    expect(roles.body.email).toBe('ed2@example.com');
    await t().login('editable', PASSWORD);

    const pw = await t().call(usersRoutes.update, {
      cookie,
      params: { id },
      body: { _id: id, password: 'new-secret' },
    });
    expect(pw.status).toBe(200);
    await t().login('editable', 'new-secret');
  });

  it('ends the other sessions of a user whose password or roles change, but keeps the caller logged in', async () => {
    const made = await create({ username: 'sessioned', email: 's@example.com', password: PASSWORD, roles: [] });
    const id = made.body._id;
    const theirs = await t().login('sessioned', PASSWORD);
    const cookie = await admin();

    await t().call(usersRoutes.update, { cookie, params: { id }, body: { _id: id, email: 's2@example.com' } });
    expect((await t().call(authRoutes.session, { cookie: theirs })).status).toBe(200);

    await t().call(usersRoutes.update, { cookie, params: { id }, body: { _id: id, roles: ['operator'] } });
    expect((await t().call(authRoutes.session, { cookie: theirs })).status).toBe(401);

    const again = await t().login('sessioned', PASSWORD);
    await t().call(usersRoutes.update, { cookie, params: { id }, body: { _id: id, password: 'changed-pw' } });
    expect((await t().call(authRoutes.session, { cookie: again })).status).toBe(401);
    expect((await t().call(authRoutes.session, { cookie })).status).toBe(200);

    // Changing one's own password keeps the session it was changed from.
    await create({ username: 'self-editor', email: 'se@example.com', password: PASSWORD, roles: [ADMIN_ROLE] });
    const self = await t().login('self-editor', PASSWORD);
    const other = await t().login('self-editor', PASSWORD);
    const selfId = (await t().call(authRoutes.session, { cookie: self })).body._id;
    const res = await t().call(usersRoutes.update, {
      cookie: self,
      params: { id: selfId },
      body: { _id: selfId, password: 'self-changed' },
    });
    expect(res.status).toBe(200);
    expect((await t().call(authRoutes.session, { cookie: self })).status).toBe(200);
    expect((await t().call(authRoutes.session, { cookie: other })).status).toBe(401);
  });

  it('refuses bad updates and changes nothing', async () => {
    const cookie = await admin();
    const made = await create({ username: 'fixeduser', email: 'f@example.com', password: PASSWORD, roles: [] });
    const id = made.body._id;
    const before = await list();
    const cases: [string, unknown, number, string][] = [
      [id, { _id: id, username: 'renamed-user' }, 422, MSG.users.usernameImmutable],
      [id, { _id: 'someone-else' }, 400, MSG.users.idMismatch],
      [id, { _id: id, roles: ['ghost-role'] }, 400, MSG.users.unknownRole('ghost-role')],
      [id, { _id: id, password: '123' }, 400, MSG.users.passwordRule],
      [id, { _id: id, email: 'nope' }, 400, MSG.users.emailRequired],
      [id, { _id: id, createdAt: '2020-01-01T00:00:00.000Z' }, 400, 'createdAt'],
      [id, { email: 'f2@example.com' }, 400, '_id'],
      ['no-such-id', { _id: 'no-such-id', email: 'x@example.com' }, 404, MSG.users.userNotFound],
    ];
    for (const [target, body, status, text] of cases) {
      const res = await t().call(usersRoutes.update, { cookie, params: { id: target }, body: body as any });
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.error, JSON.stringify(body)).toContain(text);
    }
    expect(await list()).toEqual(before);
    await t().login('fixeduser', PASSWORD);
  });

  it('deletes a user and their sessions; refuses unknown ids, oneself and the built-in admin', async () => {
    const cookie = await admin();
    const made = await create({ username: 'doomed-user', email: 'd@example.com', password: PASSWORD, roles: [] });
    const theirs = await t().login('doomed-user', PASSWORD);
    const del = await t().call(usersRoutes.remove, { cookie, params: { id: made.body._id } });
    expect(del.status).toBe(204);
    expect((await list()).some((u) => u.username === 'doomed-user')).toBe(false);
    expect((await t().call(authRoutes.session, { cookie: theirs })).status).toBe(401);

    const unknown = await t().call(usersRoutes.remove, { cookie, params: { id: made.body._id } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: MSG.users.userNotFound });

    const adminId = (await list()).find((u) => u.username === 'admin')._id;
    const self = await t().call(usersRoutes.remove, { cookie, params: { id: adminId } });
    expect(self.status).toBe(422);
    expect(self.body).toEqual({ error: MSG.users.cannotDeleteSelf });

    await create({ username: 'second-admin', email: 'a2@example.com', password: PASSWORD, roles: [ADMIN_ROLE] });
    const second = await t().login('second-admin', PASSWORD);
    const builtIn = await t().call(usersRoutes.remove, { cookie: second, params: { id: adminId } });
    expect(builtIn.status).toBe(422);
    expect(builtIn.body).toEqual({ error: MSG.users.cannotDeleteAdmin });
    // The built-in admin also keeps its role.
    const strip = await t().call(usersRoutes.update, {
      cookie: second,
      params: { id: adminId },
      body: { _id: adminId, roles: [] },
    });
    expect(strip.status).toBe(422);
    expect(strip.body).toEqual({ error: MSG.users.adminKeepsRole });
    expect((await list()).find((u) => u.username === 'admin').roles).toEqual([ADMIN_ROLE]);
  });

  it('lets the Users permission manage operators but not administrators', async () => {
    const manager = await t().userWith([P.USERS]);
    const made = await create(
      { username: 'managed-op', email: 'm@example.com', password: PASSWORD, roles: [] },
      manager.cookie,
    );
    expect(made.status).toBe(200);
    const id = made.body._id;

    const promote = await t().call(usersRoutes.update, {
      cookie: manager.cookie,
      params: { id },
      body: { _id: id, roles: [ADMIN_ROLE] },
    });
    expect(promote.status).toBe(403);
    expect(promote.body).toEqual({ error: MSG.users.onlyAdminManagesAdmins });
    const newAdmin = await create(
      { username: 'sneaky-admin', email: 'x@example.com', password: PASSWORD, roles: [ADMIN_ROLE] },
      manager.cookie,
    );
    expect(newAdmin.status).toBe(403);

    const adminId = (await list()).find((u) => u.username === 'admin')._id;
    const edit = await t().call(usersRoutes.update, {
      cookie: manager.cookie,
      params: { id: adminId },
      body: { _id: adminId, password: 'hijacked-pw' },
    });
    expect(edit.status).toBe(403);
    await t().login('admin', ADMIN_PASSWORD);

    const del = await t().call(usersRoutes.remove, { cookie: manager.cookie, params: { id } });
    expect(del.status).toBe(204);
  });

  it('needs the Users permission for every users call', async () => {
    const nobody = await t().userWith([P.ROLES_WRITE]);
    expect((await t().call(usersRoutes.list, { cookie: nobody.cookie })).status).toBe(403);
    const res = await create(
      { username: 'not-allowed', email: 'n@example.com', password: PASSWORD, roles: [] },
      nobody.cookie,
    );
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: MSG.common.insufficientPermissions });
  });
});
