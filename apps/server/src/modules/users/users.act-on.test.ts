import { expect, it } from 'vitest';
import { MSG, P, authRoutes, rolesRoutes, usersRoutes, type Permission } from '@stadiumcam/contract';
import { describeEachDb } from '../../test/harness.ts';
import { newMailsTo, postFrom, readOutbox } from '../auth/auth.test-util.ts';
import { deleteUser, updateUser } from '../auth/users.repository.ts';

// Issue 27 §3: nobody changes, resets or deletes a user who holds more than they do.
describeEachDb('users: nobody acts on a user who holds more', (t) => {
  const PASSWORD = 'user-test-password';
  const VICTIM: Permission[] = [P.CONFIG, P.ANALYTICS_READ];
  const refusal = { error: MSG.users.cannotActOnStronger(P.ANALYTICS_READ) };

  /** A victim holding Analytics:read, a weaker Users holder without it, and one holding all the victim holds. */
  const cast = async () => ({
    victim: await t().userWith(VICTIM),
    weak: await t().userWith([P.USERS, P.CONFIG]),
    equal: await t().userWith([P.USERS, ...VICTIM]),
  });
  const stored = async (id: string) =>
    ((await t().call(usersRoutes.list, { cookie: await t().adminCookie() })).body as any[]).find((u) => u._id === id);
  const update = (cookie: string, id: string, body: Record<string, unknown>) =>
    t().call(usersRoutes.update, { cookie, params: { id }, body: { _id: id, ...body } as any });
  const stillLoggedIn = async (cookie: string) => (await t().call(authRoutes.session, { cookie })).status === 200;
  const canLogin = async (username: string, password: string) =>
    (await postFrom(t(), '10.27.3.1', '/api/users/login', { username, password })).status === 200;

  it('password: a weaker actor gets 403 and the password stays; an equal one sets it', async () => {
    const { victim, weak, equal } = await cast();
    const res = await update(weak.cookie, victim.id, { password: 'taken-over-1' });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(refusal);
    expect(await canLogin(victim.username, 'taken-over-1')).toBe(false);
    expect(await stillLoggedIn(victim.cookie)).toBe(true);

    expect((await update(equal.cookie, victim.id, { password: 'handed-over-1' })).status).toBe(200);
    expect(await canLogin(victim.username, 'handed-over-1')).toBe(true);
    // The new password ended the victim's other sessions, as any password change does.
    expect(await stillLoggedIn(victim.cookie)).toBe(false);
  });

  it('e-mail: a weaker actor gets 403 and the address stays; an equal one changes it', async () => {
    const { victim, weak, equal } = await cast();
    const before = await stored(victim.id);
    const res = await update(weak.cookie, victim.id, { email: `${weak.username}@example.com` });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(refusal);
    expect(await stored(victim.id)).toEqual(before);

    const ok = await update(equal.cookie, victim.id, { email: 'moved@example.com' });
    expect(ok.status).toBe(200);
    expect((await stored(victim.id)).email).toBe('moved@example.com');
  });

  it('roles: a weaker actor can neither take nor swap the roles of a stronger user; an equal one can', async () => {
    const { victim, weak, equal } = await cast();
    const admin = await t().adminCookie();
    await t().call(rolesRoutes.save, {
      cookie: admin,
      params: { name: 'config-only' },
      body: { permissions: [P.CONFIG], isNew: true },
    });
    const before = await stored(victim.id);
    for (const roles of [[], ['config-only'], [...before.roles, 'config-only']]) {
      const res = await update(weak.cookie, victim.id, { roles });
      expect(res.status, JSON.stringify(roles)).toBe(403);
      expect(res.body).toEqual(refusal);
    }
    expect(await stored(victim.id)).toEqual(before);
    expect(await stillLoggedIn(victim.cookie)).toBe(true);

    expect((await update(equal.cookie, victim.id, { roles: ['config-only'] })).status).toBe(200);
    expect((await stored(victim.id)).roles).toEqual(['config-only']);
    // Now the weaker actor holds all the victim holds, and may act.
    expect((await update(weak.cookie, victim.id, { email: 'weak-may@example.com' })).status).toBe(200);
  });

  it('delete: a weaker actor gets 403 and the user stays; a stronger one deletes', async () => {
    const { victim, weak } = await cast();
    const stronger = await t().userWith([P.USERS, ...VICTIM, P.MONITOR_READ]);
    const res = await t().call(usersRoutes.remove, { cookie: weak.cookie, params: { id: victim.id } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(refusal);
    expect(await stored(victim.id)).toBeDefined();
    expect(await stillLoggedIn(victim.cookie)).toBe(true);

    expect((await t().call(usersRoutes.remove, { cookie: stronger.cookie, params: { id: victim.id } })).status).toBe(
      204,
    );
    expect(await stored(victim.id)).toBeUndefined();
  });

  it('the reset path: a weaker actor cannot steer a reset mail to their mailbox; a change of address voids old links', async () => {
    const { victim, weak, equal } = await cast();
    const weakMail = `${weak.username}@example.com`;
    const victimMail = `${victim.username}@example.com`;

    // The take-over: point the victim's address at one's own mailbox, then ask for a reset.
    const steer = await update(weak.cookie, victim.id, { email: weakMail });
    expect(steer.status).toBe(403);
    expect(steer.body).toEqual(refusal);
    const seen = new Set((await readOutbox(t())).map((m) => m.file));
    expect((await postFrom(t(), '10.27.3.2', '/api/users/resetPasswordEmail', { email: weakMail })).status).toBe(200);
    const toWeak = await newMailsTo(t(), weakMail, seen);
    expect(toWeak).toHaveLength(1);
    expect(toWeak[0].text).toContain(`Hello ${weak.username},`);
    expect(toWeak.some((m) => m.text.includes(victim.username))).toBe(false);

    // The console's reset (Generate password on the user's modal) is an update of the password.
    const generated = await update(weak.cookie, victim.id, { password: 'generated-pw1' });
    expect(generated.status).toBe(403);
    expect(generated.body).toEqual(refusal);

    // A link mailed to the victim's old address stops working once an equal actor moves the address.
    const known = new Set((await readOutbox(t())).map((m) => m.file));
    await postFrom(t(), '10.27.3.3', '/api/users/resetPasswordEmail', { email: victimMail });
    const [link] = await newMailsTo(t(), victimMail, known);
    const token = /reset_password\/([\w-]+)/.exec(link.text)![1];
    expect((await update(equal.cookie, victim.id, { email: 'new-home@example.com' })).status).toBe(200);
    const late = await postFrom(t(), '10.27.3.3', '/api/users/resetPassword', { token });
    expect(late.status).toBe(400);
    expect(late.body).toEqual({ error: MSG.auth.resetTokenInvalid });
    expect(await canLogin(victim.username, PASSWORD)).toBe(true);
  });

  it('writes only while the user holds the roles the rule was checked against', async () => {
    // A request that checked the rule, then lost a race with one giving the user more roles,
    // writes nothing (the service then checks again on what the user now holds).
    const { victim } = await cast();
    const before = await stored(victim.id);
    const db = t().app.deps.db;
    expect(await updateUser(db, victim.id, { email: 'stale@example.com' }, [])).toBeUndefined();
    expect(await updateUser(db, victim.id, { email: 'stale@example.com' }, [...before.roles, 'more'])).toBeUndefined();
    expect(await deleteUser(db, victim.id, ['another-role'])).toBe(false);
    expect(await stored(victim.id)).toEqual(before);
    expect((await updateUser(db, victim.id, { email: 'fresh@example.com' }, before.roles))?.email).toBe(
      'fresh@example.com',
    );
    expect(await deleteUser(db, victim.id, before.roles)).toBe(true);
  });

  it('an administrator acts on anyone; only an administrator acts on an administrator', async () => {
    const { victim } = await cast();
    const admin = await t().adminCookie();
    expect((await update(admin, victim.id, { email: 'by-admin@example.com' })).status).toBe(200);
    // A holder of every permission who is not an administrator still may not touch one.
    const full = await t().userWith(Object.values(P));
    const adminId = ((await t().call(usersRoutes.list, { cookie: admin })).body as any[]).find(
      (u) => u.username === 'admin',
    )._id;
    const res = await update(full.cookie, adminId, { email: 'not-yours@example.com' });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: MSG.users.onlyAdminManagesAdmins });
  });
});
