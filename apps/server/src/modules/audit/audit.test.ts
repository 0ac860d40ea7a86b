import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MSG,
  P,
  auditRoutes,
  authRoutes,
  cameraConfigsRoutes,
  eventsRoutes,
  exportRoutes,
  partRoutes,
  rolesRoutes,
  snapshotsRoutes,
  usersRoutes,
  type AuditEntry,
  type RouteDef,
  type RouteInput,
} from '@stadiumcam/contract';
import { ADMIN_PASSWORD, DEVICE_TOKEN, describeEachDb } from '../../test/harness.ts';
import { makeEvent, makePhoto } from '../../test/factories.ts';
import { auditLog } from '../../db/schema/index.ts';
import { SocketPool, ask, listenUrl } from '../../test/realtime.ts';
import { applyAuditRetention } from './audit.service.ts';

const EVENT = 'audit-night-2026-11-27';
const DAY_MS = 24 * 60 * 60_000;

describeEachDb('audit log (issue 32 §1)', (t) => {
  let admin = '';
  let adminId = '';
  let url = '';
  const pool = new SocketPool(() => url);
  const photos: string[] = [];

  const list = async (query: Record<string, unknown> = {}, cookie = admin) => {
    const res = await t().call(auditRoutes.list, { cookie, query: query });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { entries: AuditEntry[]; next: string | null };
  };
  /** The newest entry of this kind. */
  const latest = async (action: string) => (await list({ action, limit: 1 })).entries[0];

  beforeAll(async () => {
    url = await listenUrl(t());
    admin = await t().adminCookie();
    const me = await t().call(authRoutes.session, { cookie: admin });
    adminId = me.body._id;
    await makeEvent(t().app.deps.db, EVENT);
    for (let i = 0; i < 4; i++) photos.push((await makePhoto(t().app.deps.db, { slugDate: EVENT })).id);
    await makePhoto(t().app.deps.db, { slugDate: EVENT, userId: 'fan-9' });
  });
  afterAll(() => pool.closeAll());

  type Case = {
    action: string;
    route: RouteDef;
    input: () => Partial<RouteInput<RouteDef>>;
    targets?: () => Record<string, unknown>;
    slugDate?: string | null;
  };
  const cases: Case[] = [
    {
      action: 'event.update',
      route: eventsRoutes.update,
      input: () => ({ body: { slugDate: EVENT, data: { title: 'Audit night' } } }),
      targets: () => ({ slugDate: EVENT }),
      slugDate: EVENT,
    },
    {
      action: 'event.status',
      route: eventsRoutes.update,
      input: () => ({ body: { slugDate: EVENT, data: { eventStatus: 'post' } } }),
      slugDate: EVENT,
    },
    {
      action: 'photo.favourite',
      route: snapshotsRoutes.favorite,
      input: () => ({ body: { ids: [photos[0]], favorite: true } }),
      targets: () => ({ ids: [photos[0]] }),
    },
    {
      action: 'photo.ban',
      route: snapshotsRoutes.ban,
      input: () => ({ body: { ids: [photos[1]], banStatus: true } }),
      targets: () => ({ ids: [photos[1]] }),
    },
    {
      action: 'photo.banUser',
      route: snapshotsRoutes.banUser,
      input: () => ({ body: { userId: 'fan-9', banStatus: true, slugDate: [EVENT] } }),
      targets: () => ({ userId: 'fan-9' }),
      slugDate: EVENT,
    },
    {
      action: 'photo.delete',
      route: snapshotsRoutes.remove,
      input: () => ({ body: { ids: [photos[2]] } }),
      targets: () => ({ ids: [photos[2]] }),
    },
    {
      action: 'photo.archive',
      route: snapshotsRoutes.downloadArchive,
      input: () => ({ query: { snapshots: [photos[3]] } }),
      targets: () => ({ snapshots: [photos[3]] }),
    },
    {
      action: 'template.trivia',
      route: partRoutes.trivia,
      input: () => ({ body: { eventIds: [EVENT], triviaEnabled: true } }),
      targets: () => ({ eventIds: [EVENT], slugDates: [EVENT] }),
      slugDate: EVENT,
    },
    {
      action: 'amp.export',
      route: exportRoutes.export,
      input: () => ({ params: { slugDate: EVENT } }),
      targets: () => ({ slugDate: EVENT }),
      slugDate: EVENT,
    },
    {
      action: 'role.save',
      route: rolesRoutes.save,
      input: () => ({ params: { name: 'auditors' }, body: { permissions: [P.AUDIT_READ], isNew: true } }),
      targets: () => ({ name: 'auditors' }),
    },
    {
      action: 'event.delete',
      route: eventsRoutes.remove,
      input: () => ({ params: { slugDate: 'gone-2026-12-01' } }),
      targets: () => ({ slugDate: 'gone-2026-12-01' }),
      slugDate: 'gone-2026-12-01',
    },
  ];

  it.each(cases.map((c) => [c.action, c] as const))('%s leaves its entry with the actor and ids', async (_, c) => {
    if (c.action === 'event.delete') await makeEvent(t().app.deps.db, 'gone-2026-12-01');
    const res = await t().call(c.route, { cookie: admin, ...c.input() });
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    const entry = await latest(c.action);
    expect(entry).toMatchObject({
      action: c.action,
      actorId: adminId,
      username: 'admin',
      result: 'done',
      reason: null,
      address: '127.0.0.1',
    });
    if (c.targets) expect(entry.targets).toMatchObject(c.targets());
    if (c.slugDate !== undefined) expect(entry.slugDate).toBe(c.slugDate);
  });

  it('an event edit and a template save carry their before and after', async () => {
    const edit = await latest('event.update');
    expect(edit.detail).toMatchObject({ before: { title: EVENT }, after: { title: 'Audit night' } });
    const status = await latest('event.status');
    expect(status.detail).toMatchObject({ after: { eventStatus: 'post' } });
    const trivia = await latest('template.trivia');
    expect(trivia.detail).toMatchObject({ before: { triviaEnabled: false }, after: { triviaEnabled: true } });
  });

  it("going live records the pre-live checklist's failing items, computed by the server", async () => {
    const live = await t().call(eventsRoutes.update, {
      cookie: admin,
      body: { slugDate: EVENT, data: { eventStatus: 'live' } },
    });
    expect(live.status, JSON.stringify(live.body)).toBe(200);
    const entry = await latest('event.status');
    expect(entry.detail).toMatchObject({ after: { eventStatus: 'live' } });
    const failures = (entry.detail as { checklistFailures: string[] }).checklistFailures;
    expect(failures).toContain(`${MSG.checklist.cameras}: ${MSG.checklist.noCameras}`);
    await t().call(eventsRoutes.update, { cookie: admin, body: { slugDate: EVENT, data: { eventStatus: 'post' } } });
  });

  it('users: create, change (no password in the entry), delete', async () => {
    const created = await t().call(usersRoutes.create, {
      cookie: admin,
      body: { username: 'audit-user', email: 'a@example.com', password: 'first-secret-pw', roles: [] },
    });
    expect(created.status).toBe(200);
    const id = created.body._id as string;
    const changed = await t().call(usersRoutes.update, {
      cookie: admin,
      params: { id },
      body: { _id: id, email: 'b@example.com', password: 'second-secret-pw' },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect((await t().call(usersRoutes.remove, { cookie: admin, params: { id } })).status).toBe(204);
    expect(await latest('user.create')).toMatchObject({ actorId: adminId, result: 'done' });
    expect(await latest('user.update')).toMatchObject({
      targets: { id, username: 'audit-user' },
      detail: { before: { email: 'a@example.com' }, after: { email: 'b@example.com' }, passwordChanged: true },
    });
    expect((await latest('user.delete')).targets).toMatchObject({ id, username: 'audit-user' });
  });

  it('login, failed login (the name tried, never the password) and logout', async () => {
    const cookie = await t().login('admin', ADMIN_PASSWORD);
    expect(await latest('auth.login')).toMatchObject({ actorId: adminId, username: 'admin', result: 'done' });
    const failed = await t().call(authRoutes.login, { body: { username: 'admin', password: 'wrong-password-123' } });
    expect(failed.status).toBe(401);
    expect(await latest('auth.loginFailed')).toMatchObject({
      actorId: null,
      username: 'admin',
      result: 'refused',
      reason: MSG.auth.invalidCredentials,
    });
    expect((await t().call(authRoutes.logout, { cookie })).status).toBe(204);
    expect(await latest('auth.logout')).toMatchObject({ actorId: adminId, result: 'done' });
  });

  it('a refused action is recorded as refused with its reason; a forbidden one too', async () => {
    const res = await t().call(eventsRoutes.update, {
      cookie: admin,
      body: { slugDate: 'no-such-2026-01-01', data: { title: 'x' } },
    });
    expect(res.status).toBe(404);
    expect(await latest('event.update')).toMatchObject({
      result: 'refused',
      reason: MSG.events.eventNotFound,
      slugDate: 'no-such-2026-01-01',
    });
    const viewer = await t().userWith([P.MONITOR_READ], { username: 'audit-viewer' });
    const denied = await t().call(snapshotsRoutes.remove, { cookie: viewer.cookie, body: { ids: [photos[3]] } });
    expect(denied.status).toBe(403);
    expect(await latest('photo.delete')).toMatchObject({
      actorId: viewer.id,
      username: 'audit-viewer',
      result: 'refused',
      reason: MSG.common.insufficientPermissions,
    });
    // A camera config change for a camera no host serves.
    const config = await t().call(cameraConfigsRoutes.update, {
      cookie: admin,
      params: { key: 'cam404' },
      body: { camera: 'cam404', configs: [{ configKey: 'zoom', configValue: 1 }] },
    });
    expect(config.status).toBe(404);
    expect(await latest('camera.config')).toMatchObject({
      result: 'refused',
      reason: MSG.cameras.unknownCamera('cam404'),
      targets: { key: 'cam404', camera: 'cam404' },
    });
  });

  it('socket commands: power, take photo, kick, ban, snooze, with the ack as the result', async () => {
    const host = await pool.host('audit-host', [{ camera: 'cam7' }]);
    host.on('power', (_p, ack) => ack({ ok: true }));
    host.on('magicshot', (_p, ack) => ack({ ok: true }));
    host.on('kick', (_p, ack) => ack({ ok: true }));
    host.on('ban', (_p, ack) => ack({ ok: true }));
    host.on('snooze', (_p, ack) => ack({ ok: true }));
    const operator = await t().userWith([P.POWER_BTN, P.MAGICSHOTS_WRITE, P.PHOTOS_WRITE], {
      username: 'audit-operator',
    });
    const console = await pool.console(operator.cookie);
    expect((await ask(console, 'power camera', { camera: 'cam7', on: false })).ok).toBe(true);
    expect((await ask(console, 'take MagicShot', { slug: EVENT, camera: 'cam7' })).ok).toBe(true);
    expect((await ask(console, 'boot user', { userId: 'fan-kick' })).ok).toBe(true);
    expect((await ask(console, 'ban user', { userId: 'fan-ban' })).ok).toBe(true);
    expect((await ask(console, 'snooze user', { userId: 'fan-snooze', minutes: 5 })).ok).toBe(true);
    const by = { actorId: operator.id, username: 'audit-operator', result: 'done' };
    expect(await latest('camera.power')).toMatchObject({ ...by, targets: { camera: 'cam7' } });
    expect(await latest('camera.takePhoto')).toMatchObject({ ...by, slugDate: EVENT, targets: { camera: 'cam7' } });
    expect(await latest('camera.kick')).toMatchObject({ ...by, targets: { userId: 'fan-kick' } });
    expect(await latest('camera.ban')).toMatchObject({ ...by, targets: { userId: 'fan-ban' } });
    expect(await latest('camera.snooze')).toMatchObject({ ...by, targets: { userId: 'fan-snooze' } });
    // Refused by its ack: a camera no host serves.
    const off = await ask(console, 'power camera', { camera: 'cam404', on: true });
    expect(off.ok).toBe(false);
    expect(await latest('camera.power')).toMatchObject({ result: 'refused', reason: (off as { error: string }).error });
  });

  it('a user without Audit:read gets 403; with it the list opens', async () => {
    const other = await t().userWith([P.USERS, P.ROLES_WRITE]);
    expect((await t().call(auditRoutes.list, { cookie: other.cookie })).status).toBe(403);
    expect((await t().call(auditRoutes.exportCsv, { cookie: other.cookie })).status).toBe(403);
    const auditor = await t().userWith([P.AUDIT_READ]);
    expect((await list({}, auditor.cookie)).entries.length).toBeGreaterThan(0);
  });

  it('newest first, keyset pages without overlap, filters by user, action, event and time', async () => {
    const first = await list({ limit: 3 });
    expect(first.entries).toHaveLength(3);
    const second = await list({ limit: 3, cursor: first.next });
    const all = [...first.entries, ...second.entries];
    expect(new Set(all.map((e) => e.id)).size).toBe(6);
    const keys = all.map((e) => [e.at, Number(e.id)] as const);
    for (let i = 1; i < keys.length; i++) {
      const [a, b] = [keys[i - 1], keys[i]];
      expect(a[0] > b[0] || (a[0] === b[0] && a[1] > b[1])).toBe(true);
    }
    const byEvent = await list({ slugDate: EVENT });
    expect(byEvent.entries.length).toBeGreaterThan(3);
    expect(byEvent.entries.every((e) => e.slugDate === EVENT)).toBe(true);
    const byUser = await list({ user: 'audit-operator' });
    expect(byUser.entries.map((e) => e.action).sort()).toEqual(
      [
        'auth.login',
        'camera.ban',
        'camera.kick',
        'camera.power',
        'camera.power',
        'camera.snooze',
        'camera.takePhoto',
      ].sort(),
    );
    const future = await list({ from: new Date(Date.now() + DAY_MS).toISOString() });
    expect(future.entries).toEqual([]);
  });

  it('impossible ranges and an unknown event: a clear error, nothing recorded or changed', async () => {
    const before = (await list({ limit: 200 })).entries.length;
    const range = await t().call(auditRoutes.list, {
      cookie: admin,
      query: { from: '2026-11-27T12:00:00.000Z', to: '2026-11-27T11:00:00.000Z' },
    });
    expect(range).toMatchObject({ status: 400, body: { error: MSG.audit.badRange } });
    const unknown = await t().call(auditRoutes.list, { cookie: admin, query: { slugDate: 'nope-2026-01-01' } });
    expect(unknown).toMatchObject({ status: 404, body: { error: MSG.audit.unknownEvent('nope-2026-01-01') } });
    const cursor = await t().call(auditRoutes.list, { cookie: admin, query: { cursor: 'garbage' } });
    expect(cursor).toMatchObject({ status: 400, body: { error: MSG.audit.badCursor } });
    expect((await list({ limit: 200 })).entries.length).toBe(before);
  });

  it('the CSV quotes every cell and neutralises formulas; the export is itself recorded', async () => {
    await t().call(authRoutes.login, { body: { username: '=hyperlink("http://x")', password: 'whatever-123' } });
    const res = await t().call(auditRoutes.exportCsv, { cookie: admin, query: { action: 'auth.loginFailed' } });
    expect(res.status).toBe(200);
    expect(String(res.headers['content-type'])).toContain('text/csv');
    const lines = String(res.body).trim().split('\r\n');
    expect(lines[0]).toBe('"Time (UTC)","User","Action","Event","Targets","Result","Reason","Address","Detail"');
    expect(lines[1]).toContain(`"'=hyperlink(""http://x"")","Failed login"`);
    expect(lines.slice(1).every((l) => l.startsWith('"'))).toBe(true);
    expect(await latest('audit.export')).toMatchObject({ actorId: adminId, result: 'done' });
  });

  it('no password, token, cookie or photo bytes in any entry', async () => {
    const rows = await t().app.deps.db.select().from(auditLog);
    const text = JSON.stringify(rows);
    for (const secret of [ADMIN_PASSWORD, 'first-secret-pw', 'second-secret-pw', 'wrong-password-123', DEVICE_TOKEN]) {
      expect(text).not.toContain(secret);
    }
    expect(text).not.toContain(admin.slice('sid='.length));
    expect(text).not.toMatch(/"password"|"sid"|"cookie"/i);
  });

  it('retention removes entries older than AUDIT_RETENTION_DAYS, keeps the rest; no route deletes', async () => {
    const days = t().config.auditRetentionDays;
    expect(days).toBe(400);
    const now = Date.now();
    const row = (action: string, ageDays: number) => ({
      at: new Date(now - ageDays * DAY_MS),
      action,
      username: 'retention',
      targets: {},
      detail: {},
      result: 'done' as const,
    });
    await t()
      .app.deps.db.insert(auditLog)
      .values([row('event.create', days + 1), row('event.delete', days - 1)]);
    expect(await applyAuditRetention(t().app.deps)).toBe(1);
    const left = await list({ user: 'retention' });
    expect(left.entries.map((e) => e.action)).toEqual(['event.delete']);
    const routes = t().app.routeDefs.filter((d) => d.path.startsWith('/api/audit'));
    expect(routes.map((d) => d.method)).toEqual(['GET', 'GET']);
  });
});

describe('AUDIT_RETENTION_DAYS', () => {
  it('is read by config.ts, 400 by default', async () => {
    const { configFromEnv } = await import('../../config.ts');
    expect(configFromEnv({}).auditRetentionDays).toBe(400);
    expect(configFromEnv({ AUDIT_RETENTION_DAYS: '30' }).auditRetentionDays).toBe(30);
  });
});
