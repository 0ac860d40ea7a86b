import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import sharp from 'sharp';
import { MSG, P, attendeeRoutes, camerasRoutes, type CameraState } from '@stadiumcam/contract';
import { ensureTodayEventLive } from '../events/events.service.ts';
import { describeEachDb } from '../../test/harness.ts';
import { SocketPool, ask, listenUrl, next, type TestHost } from '../../test/realtime.ts';
import { joinAs, newFan } from '../attendee/fan.test-util.ts';

const jpeg = (color: string) =>
  sharp({ create: { width: 64, height: 36, channels: 3, background: color } })
    .jpeg()
    .toBuffer();

describeEachDb('camera hosts and console camera commands', (t) => {
  let url = '';
  const pool = new SocketPool(() => url);

  beforeAll(async () => {
    url = await listenUrl(t());
    // Hosts that do not answer: the console hears so quickly.
    t().config.hostAckTimeoutMs = 400;
  });
  afterAll(() => {
    pool.closeAll();
  });

  it('refuses a host with a wrong device token at connect', async () => {
    await expect(pool.host('intruder', null, 'wrong-token')).rejects.toThrow('Invalid device token');
  });

  it('lists announced cameras in the status; a host that leaves turns its cameras off', async () => {
    const cookie = await t().adminCookie();
    const host = await pool.host('host-status', [{ camera: 'st1' }, { camera: 'st2', status: 'off' }]);
    const status = await t().call(camerasRoutes.status, { cookie });
    expect(status.status).toBe(200);
    expect(status.body.demo).toBe(false);
    expect(status.body.cameras).toMatchObject({ st1: 'on', st2: 'off' });

    const monitor = await t().call(camerasRoutes.monitor, { cookie });
    const st1 = (monitor.body.cameras as CameraState[]).find((c) => c.camera === 'st1');
    expect(st1?.host).toMatchObject({ hostId: 'host-status', name: 'Test host-status', ip: '10.0.0.9' });

    const console = await pool.console(cookie);
    const gone = next<{ hostId: string; cameras: string[] }>(console, 'monitor socket disconnected');
    const off = next<{ camera: string; status: string }>(console, 'monitor power', (p) => p.camera === 'st1');
    host.disconnect();
    expect(await gone).toEqual({ hostId: 'host-status', cameras: ['st1', 'st2'] });
    expect(await off).toEqual({ camera: 'st1', status: 'off' });
    expect((await t().call(camerasRoutes.status, { cookie })).body.cameras).toMatchObject({ st1: 'off', st2: 'off' });
  });

  it('serves the live time left as of now, not the figure of the turn start (a console opened mid-turn)', async () => {
    const cookie = await t().adminCookie();
    const host = await pool.host('host-live', [{ camera: 'lt1' }]);
    const liveTime = async () =>
      (await t().call(camerasRoutes.monitor, { cookie })).body.cameras.find((c: CameraState) => c.camera === 'lt1')
        ?.liveTime;
    host.emit('report', { camera: 'lt1', queue: ['fan-a'], liveTime: 6 });
    await vi.waitFor(async () => expect(await liveTime()).toBe(6));
    // An fps report repeating the figure does not restart the count; the count goes down.
    host.emit('report', { camera: 'lt1', fps: 5, liveTime: 6 });
    await vi.waitFor(async () => expect(await liveTime()).toBe(5), { timeout: 3000, interval: 100 });
    // The next fan's turn starts from its own figure.
    host.emit('report', { camera: 'lt1', queue: ['fan-b'], liveTime: 6 });
    await vi.waitFor(async () => expect(await liveTime()).toBe(6));
    host.disconnect();
  });

  it('tells every console when a host connects, with its cameras ("monitor socket connected")', async () => {
    const cookie = await t().adminCookie();
    const console = await pool.console(cookie);
    const came = next<{ hostId: string; cameras: string[] }>(
      console,
      'monitor socket connected',
      (p) => p.hostId === 'host-came',
    );
    const host = await pool.host('host-came', [{ camera: 'cm1' }, { camera: 'cm2', status: 'off' }]);
    expect(await came).toEqual({ hostId: 'host-came', cameras: ['cm1', 'cm2'] });
    host.disconnect();
  });

  it('relays a power command to the host and the new status back to consoles', async () => {
    const cookie = await t().adminCookie();
    const host = await pool.host('host-power', [{ camera: 'pw1' }]);
    host.on('power', ({ camera, on }, ack) => {
      ack({ ok: true });
      host.emit('report', { camera: camera!, status: on ? 'on' : 'off' });
    });
    const console = await pool.console(cookie);
    const changed = next<{ camera: string; status: string }>(console, 'monitor power', (p) => p.camera === 'pw1');
    expect(await ask(console, 'power camera', { camera: 'pw1', on: false })).toEqual({ ok: true, cameras: ['pw1'] });
    expect(await changed).toEqual({ camera: 'pw1', status: 'off' });
    expect((await t().call(camerasRoutes.status, { cookie })).body.cameras.pw1).toBe('off');

    expect(await ask(console, 'power camera', { camera: 'nope', on: true })).toEqual({
      ok: false,
      error: 'Unknown camera "nope"',
    });
    host.disconnect();
  });

  it("passes a host's queue, first seat and pan/zoom report on to the consoles (monitor queue, monitor firstSrs, monitor panZoom)", async () => {
    const console = await pool.console(await t().adminCookie());
    const host = await pool.host('host-report', [{ camera: 'rp1' }]);
    const queue = next<{ camera: string; queue: string[] }>(console, 'monitor queue', (p) => p.camera === 'rp1');
    const firstSrs = next<{ camera: string; firstSrs: unknown }>(
      console,
      'monitor firstSrs',
      (p) => p.camera === 'rp1',
    );
    const panZoom = next<{ camera: string; panAndZoom: unknown }>(
      console,
      'monitor panZoom',
      (p) => p.camera === 'rp1',
    );
    const seat = { id: 'fan-1', section: '101', row: 'B', seat: '7' };
    host.emit('report', {
      camera: 'rp1',
      queue: ['fan-1', 'fan-2'],
      firstSrs: seat,
      panAndZoom: { scale: 2, posX: 0.5, posY: 0.25 },
    });
    expect(await queue).toEqual({ camera: 'rp1', queue: ['fan-1', 'fan-2'] });
    expect(await firstSrs).toEqual({ camera: 'rp1', firstSrs: seat });
    expect(await panZoom).toEqual({ camera: 'rp1', panAndZoom: { scale: 2, posX: 0.5, posY: 0.25 } });
    host.disconnect();
  });

  it('a console snoozes a suspicious user on every host (snooze user), 2 minutes unless it says how long', async () => {
    const console = await pool.console(await t().adminCookie());
    const host = await pool.host('host-snooze', [{ camera: 'sz1' }]);
    const snoozed: { userId: string; minutes: number }[] = [];
    host.on('snooze', (payload, ack) => {
      snoozed.push(payload);
      ack({ ok: true });
    });
    expect(await ask(console, 'snooze user', { userId: 'fan-9' })).toEqual({ ok: true });
    expect(await ask(console, 'snooze user', { userId: 'fan-8', minutes: 10 })).toEqual({ ok: true });
    await vi.waitFor(() =>
      expect(snoozed).toEqual([
        { userId: 'fan-9', minutes: 2 },
        { userId: 'fan-8', minutes: 10 },
      ]),
    );
    host.disconnect();
  });

  it('a host taking a photo of a user tells the consoles (takeSnapshot), with the seat it reported', async () => {
    const console = await pool.console(await t().adminCookie());
    const host = await pool.host('host-take', [{ camera: 'tk1' }]);
    const seat = { id: 'fan-3', section: '102', row: 'C', seat: '4' };
    const seated = next<{ camera: string }>(console, 'monitor firstSrs', (p) => p.camera === 'tk1');
    host.emit('report', { camera: 'tk1', firstSrs: seat });
    await seated;
    const taken = next<{ camera: string; userId: string; firstSrs: unknown }>(
      console,
      'takeSnapshot',
      (p) => p.camera === 'tk1',
    );
    host.emit('taking snapshot', { camera: 'tk1', userId: 'fan-3' });
    expect(await taken).toEqual({ camera: 'tk1', userId: 'fan-3', firstSrs: seat });
    host.disconnect();
  });

  it('does not hang on a silent host: power is acknowledged when relayed, questions time out', async () => {
    const cookie = await t().adminCookie();
    const host = await pool.host('host-silent', [{ camera: 'si1' }]);
    const received: string[] = [];
    host.on('power', () => received.push('power'));
    host.on('ptz', () => received.push('ptz'));
    const console = await pool.console(cookie);
    expect(await ask(console, 'power camera', { camera: 'si1', on: false })).toEqual({ ok: true, cameras: ['si1'] });
    expect(await ask(console, 'rover get position', { target: 'host', camera: 'si1' })).toEqual({
      ok: false,
      error: 'Camera host did not answer',
    });
    expect(received).toEqual(['power', 'ptz']);
    // No report came: the camera is still on (the console's 2-minute timeout handles it).
    expect((await t().call(camerasRoutes.status, { cookie })).body.cameras.si1).toBe('on');
    host.disconnect();
  });

  it('sends frames only to consoles that joined that camera, and drops bad frames', async () => {
    const cookie = await t().adminCookie();
    const host = await pool.host('host-frames', [{ camera: 'fr1' }, { camera: 'fr2' }]);
    const watcher = await pool.console(cookie);
    const other = await pool.console(cookie);
    expect(await ask(watcher, 'join monitor livestream', { room: 'stadiumcam', camera: 'fr1' })).toEqual({ ok: true });
    expect(await ask(other, 'join monitor livestream', { room: 'stadiumcam', camera: 'fr2' })).toEqual({ ok: true });
    expect(await ask(other, 'join monitor livestream', { room: 'stadiumcam', camera: 'zz9' })).toEqual({
      ok: false,
      error: 'Unknown camera "zz9"',
    });

    const seenByOther: string[] = [];
    other.on('livestream', (f) => seenByOther.push(f.camera));
    const frame1 = await jpeg('#ff0000');
    const got = next<{ camera: string; frame: ArrayBuffer }>(watcher, 'livestream');
    // Not JPEG, and above 512 KB: dropped, the host stays connected.
    host.emit('frame', { camera: 'fr1', jpeg: Buffer.from('not a jpeg at all') });
    host.emit('frame', { camera: 'fr1', jpeg: Buffer.concat([frame1, Buffer.alloc(600 * 1024)]) });
    host.emit('frame', { camera: 'fr1', jpeg: frame1 });
    const first = await got;
    expect(first.camera).toBe('fr1');
    expect(Buffer.from(first.frame).equals(frame1)).toBe(true);

    const otherGot = next<{ camera: string }>(other, 'livestream');
    host.emit('frame', { camera: 'fr2', jpeg: await jpeg('#00ff00') });
    await otherGot;
    // Per-connection order: had the fr1 frames reached `other`, they would be listed first.
    expect(seenByOther).toEqual(['fr2']);
    expect(host.connected).toBe(true);

    expect(await ask(watcher, 'leave livestream', { room: 'stadiumcam', camera: 'fr1' })).toEqual({ ok: true });
    host.disconnect();
  });

  it('delivers every camera when a host sends its frames back to back', async () => {
    const cookie = await t().adminCookie();
    const keys = ['bb1', 'bb2', 'bb3', 'bb4'];
    const host = await pool.host(
      'host-burst',
      keys.map((camera) => ({ camera })),
    );
    const watcher = await pool.console(cookie);
    for (const camera of keys) {
      expect(await ask(watcher, 'join monitor livestream', { room: 'stadiumcam', camera })).toEqual({ ok: true });
    }
    const seen = new Set<string>();
    const all = new Promise<void>((resolve) =>
      watcher.on('livestream', (f: { camera: string }) => {
        seen.add(f.camera);
        if (seen.size === keys.length) resolve();
      }),
    );
    const frame = await jpeg('#3366ff');
    // One burst, as the simulator sends it: a volatile relay kept only the first camera.
    for (const camera of keys) host.emit('frame', { camera, jpeg: frame });
    await all;
    expect([...seen].sort()).toEqual(keys);
    host.disconnect();
  });

  it('reaches every watching console when there are more than one turn writes, each frame once', async () => {
    const cookie = await t().adminCookie();
    const host = await pool.host('host-many', [{ camera: 'mc1' }, { camera: 'mc2' }]);
    // More than the pacer writes in one turn of the event loop (8).
    const watchers = await Promise.all(Array.from({ length: 20 }, () => pool.console(cookie)));
    for (const w of watchers) {
      for (const camera of ['mc1', 'mc2']) {
        expect(await ask(w, 'join monitor livestream', { room: 'stadiumcam', camera })).toEqual({ ok: true });
      }
    }
    const got = watchers.map((w) => {
      const seen: string[] = [];
      w.on('livestream', (f: { camera: string }) => seen.push(f.camera));
      return seen;
    });
    const frame = await jpeg('#aa00aa');
    host.emit('frame', { camera: 'mc1', jpeg: frame });
    host.emit('frame', { camera: 'mc2', jpeg: frame });
    await vi.waitFor(() => expect(got.every((seen) => seen.length === 2)).toBe(true));
    // Nothing more arrives: no console got a frame twice.
    await new Promise((r) => setTimeout(r, 200));
    for (const seen of got) expect(seen.sort()).toEqual(['mc1', 'mc2']);
    host.disconnect();
  });

  it("keeps a camera's frames latest-wins while the console's last frame waits for its write", async () => {
    const cookie = await t().adminCookie();
    const host = await pool.host('host-lw', [{ camera: 'lw1' }]);
    const watcher = await pool.console(cookie);
    expect(await ask(watcher, 'join monitor livestream', { room: 'stadiumcam', camera: 'lw1' })).toEqual({ ok: true });
    const colours = ['#ff0000', '#00ff00', '#0000ff', '#ffff00', '#00ffff', '#ff00ff'];
    const frames = await Promise.all(colours.map(jpeg));
    const got: Buffer[] = [];
    watcher.on('livestream', (f) => got.push(Buffer.from(f.frame as Uint8Array)));
    // 2 ms apart, each in a turn of its own, all within one socket write tick (15 ms): the first
    // goes out, the newest replaces the ones after it while the first still waits.
    for (const frame of frames) {
      host.emit('frame', { camera: 'lw1', jpeg: frame });
      await new Promise((r) => setTimeout(r, 2));
    }
    await vi.waitFor(() => expect(got.at(-1)?.equals(frames.at(-1)!)).toBe(true));
    await new Promise((r) => setTimeout(r, 200));
    expect(got[0].equals(frames[0])).toBe(true);
    expect(got.length).toBeLessThan(frames.length);
    expect(got.filter((g) => g.equals(frames.at(-1)!))).toHaveLength(1);
    host.disconnect();
  });

  it('sends only valid moves and relays the position answer', async () => {
    const cookie = await t().adminCookie();
    const host = await pool.host('host-ptz', [{ camera: 'mv1' }]);
    const commands: string[] = [];
    let position = '0,0,0';
    host.on('ptz', ({ command }, ack) => {
      commands.push(command);
      if (command.startsWith('!')) position = command.slice(1);
      ack({ ok: true, answer: position });
    });
    const console = await pool.console(cookie);
    expect(await ask(console, 'rover move', { target: 'host', camera: 'mv1', command: '!1200,-300,0.5' })).toEqual({
      ok: true,
      answer: '1200,-300,0.5',
    });
    const event = next<{ camera: string; data: string }>(console, 'position');
    expect(await ask(console, 'rover get position', { target: 'host', camera: 'mv1' })).toEqual({
      ok: true,
      position: '1200,-300,0.5',
    });
    expect(await event).toEqual({ camera: 'mv1', data: '1200,-300,0.5' });

    expect(await ask(console, 'rover move', { target: 'host', camera: 'mv1', command: '!1.5,2,0.5' })).toEqual({
      ok: false,
      error: 'Pan and tilt must be integers',
    });
    expect(await ask(console, 'rover move', { target: 'host', camera: 'mv1', command: '!1,2,1.2' })).toEqual({
      ok: false,
      error: 'Zoom must be within 0 and 1',
    });
    for (const command of ['!0,0,0', 'c0.5,-0.25', 's']) {
      expect((await ask(console, 'rover move', { target: 'host', camera: 'mv1', command })).ok).toBe(true);
    }
    expect(commands).toEqual(['!1200,-300,0.5', '#', '!0,0,0', 'c0.5,-0.25', 's']);
    host.disconnect();
  });

  it('refuses commands the console user has no permission for', async () => {
    const viewer = await t().userWith([P.MONITOR_READ]);
    const nobody = await t().userWith([]);
    const host = await pool.host('host-perm', [{ camera: 'pm1' }]);
    const got: string[] = [];
    host.onAny((event: string) => got.push(event));
    const v = await pool.console(viewer.cookie);
    const n = await pool.console(nobody.cookie);
    const refused = { ok: false, error: MSG.common.insufficientPermissions };
    expect(await ask(v, 'power all cameras', { on: false })).toEqual(refused);
    expect(await ask(v, 'take MagicShot', { camera: 'pm1' })).toEqual(refused);
    expect(await ask(v, 'set demo mode', { demo: true })).toEqual(refused);
    expect(await ask(n, 'rover move', { target: 'host', camera: 'pm1', command: '!1,1,0' })).toEqual(refused);
    expect(await ask(n, 'getInitTotalQueue')).toEqual(refused);
    expect(await ask(n, 'join monitor livestream', { room: 'stadiumcam', camera: 'pm1' })).toEqual(refused);
    expect(got).toEqual([]);
    // What the viewer may do works.
    const queues = await ask(v, 'getInitTotalQueue');
    expect(queues.ok).toBe(true);
    expect((queues.queues as Record<string, string[]>).pm1).toEqual([]);
    expect((await t().call(camerasRoutes.status, { cookie: nobody.cookie })).status).toBe(403);
    host.disconnect();
  });

  it('demo mode: set by the power permission, announced to consoles and hosts, blocks power', async () => {
    const cookie = await t().adminCookie();
    const host = await pool.host('host-demo', [{ camera: 'dm1' }]);
    const console = await pool.console(cookie);
    const hostHeard = next<{ demo: boolean }>(host, 'demo');
    const consoleHeard = next<{ demo: boolean }>(console, 'demoModeUpdated');
    expect(await ask(console, 'set demo mode', { demo: true })).toEqual({ ok: true, demo: true });
    expect(await hostHeard).toEqual({ demo: true });
    expect(await consoleHeard).toEqual({ demo: true });
    expect(await ask(console, 'get demo mode')).toEqual({ ok: true, demo: true });
    expect(await ask(console, 'power all cameras', { on: false })).toEqual({ ok: false, error: 'Demo mode is on' });
    expect((await t().call(camerasRoutes.status, { cookie })).body.demo).toBe(true);
    await ask(console, 'set demo mode', { demo: false });
    host.disconnect();
  });

  it('attendee queue: the least loaded camera that is on is picked and told', async () => {
    const hostA: TestHost = await pool.host('host-queue', [
      { camera: 'q1' },
      { camera: 'q2' },
      { camera: 'q3', status: 'off' },
    ]);
    const joins: { camera: string; userId: string }[] = [];
    const queues: Record<string, string[]> = { q1: ['someone'], q2: [] };
    hostA.emit('report', { camera: 'q1', queue: ['someone'] });
    hostA.on('queue join', ({ camera, userId }, ack) => {
      joins.push({ camera, userId });
      queues[camera].push(userId);
      hostA.emit('report', { camera, queue: queues[camera] });
      ack({ ok: true, position: queues[camera].length });
    });
    const live = await ensureTodayEventLive(t().app.deps);
    const fan = await newFan(t());
    // Only the live event takes queue joins (issue 16 §10).
    const template = await joinAs(t(), fan, {
      slugDate: 'stadiumcam',
      seat: { seatType: 'section', section: '1', row: 'A', seat: '1' },
    });
    expect(template).toMatchObject({ status: 409, body: { error: MSG.security.eventNotLive } });
    const body = {
      slugDate: live.slugDate,
      userId: fan.userId,
      seat: { seatType: 'section', section: '104', row: 'F', seat: '12' },
    };
    const headers = fan.headers;
    // Other suites' cameras are off or gone by now; only this host's cameras are on.
    await vi.waitFor(async () => {
      const res = await t().call(attendeeRoutes.joinQueue, { body, headers });
      expect(res.body).toEqual({ camera: 'q2', position: 1 });
    });
    expect(joins).toContainEqual({ camera: 'q2', userId: fan.userId });

    const unknown = await t().call(attendeeRoutes.joinQueue, {
      body: { ...body, slugDate: 'nope-2020-01-01' },
      headers,
    });
    expect(unknown.status).toBe(404);
    const bad = await t().call(attendeeRoutes.joinQueue, {
      body: { ...body, seat: { section: '1' } as never },
      headers,
    });
    expect(bad.status).toBe(400);
    hostA.disconnect();
    await vi.waitFor(async () => {
      const none = await t().call(attendeeRoutes.joinQueue, { body, headers });
      expect(none).toMatchObject({ status: 409, body: { error: 'No camera is available' } });
    });
  });
});
