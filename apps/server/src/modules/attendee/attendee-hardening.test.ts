import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_COLORS,
  MSG,
  attendeeAppRoutes,
  attendeeRoutes,
  buildPath,
  isBlockedSeat,
  mappingRoutes,
  partRoutes,
  readSeat,
  templateRoutes,
  triviaRoutes,
  type DeviceServerEvents,
} from '@stadiumcam/contract';
import { venueMapFile, venueRowDict } from '@stadiumcam/venue-sim';
import { describeEachDb } from '../../test/harness.ts';
import sharp from 'sharp';
import { SocketPool, listenUrl, uploadPhoto, type TestHost } from '../../test/realtime.ts';
import { ensureTodayEventLive } from '../events/events.service.ts';
import { fanIdsWithKey } from './fan-token.ts';
import { joinAs, newFan, type TestFan } from './fan.test-util.ts';

/*
 * Issue 27 §4–§7 (docs/security.md §17–§20): seats in one spelling, server-issued fan ids,
 * limits on every public route and streams, trivia answers checked on the server.
 */

/** A small seeded generator: the same spellings on every run, so a failure can be replayed. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
const pick = <T>(next: () => number, xs: readonly T[]) => xs[Math.floor(next() * xs.length)];

// Spellings of seat type `section`, section 208, row K and seat 17: the ones a phone, a ticket or an
// attacker may send (padding, case, full-width digits, leading zeros, signs, decimals, exponents,
// zero-width characters, look-alike letters of another script, other digit systems).
const TYPE_SPELLINGS = ['section', 'SECTION', ' Section ', 'ｓｅｃｔｉｏｎ', 'sec\u200btion', 'sectіon'];
const SECTION_SPELLINGS = [
  '208',
  '0208',
  '00208',
  ' 208',
  '208 ',
  '２０８',
  '208\u00a0',
  '208\u200b',
  '٢٠٨',
  '+208',
  '208.0',
];
const ROW_SPELLINGS = ['K', 'k', ' K ', 'Ｋ', 'К', 'K\u200b', 'k\t', 'K.', 'K-'];
const SEAT_SPELLINGS = [
  '17',
  '017',
  '0017',
  ' 17',
  '17 ',
  '17.0',
  '+17',
  '1.7e1',
  '17e0',
  '0x11',
  '１７',
  '17\u200b',
  '١٧',
  '17.',
  ' 0017 ',
  '17,0',
  '-17',
  '1 7',
];
const BLOCKED = { seatType: 'section', section: '208', row: 'K', seat: '17' };

describe('seat spellings (readSeat, isBlockedSeat)', () => {
  it('reads every spelling of a blocked seat as that seat or refuses it: none is another, unblocked seat', () => {
    let read = 0;
    for (const seatType of TYPE_SPELLINGS)
      for (const section of SECTION_SPELLINGS)
        for (const row of ROW_SPELLINGS)
          for (const seat of SEAT_SPELLINGS) {
            const r = readSeat({ seatType, section, row, seat });
            if (!r.ok) continue;
            read++;
            expect(r.seat).toEqual(BLOCKED);
            expect(isBlockedSeat([BLOCKED], r.seat)).toBe(true);
          }
    // Some spellings are read (017, k, full-width digits), not all refused.
    expect(read).toBeGreaterThan(100);
  });

  it('reads 017 as 17 and k as K, and refuses 17.0, +17, 1.7e1 and names with other characters', () => {
    expect(readSeat({ seatType: 'Section', section: ' 0208 ', row: 'k', seat: '017' })).toEqual({
      ok: true,
      seat: BLOCKED,
    });
    for (const seat of ['17.0', '+17', '1.7e1', '0x11', '', '17a'])
      expect(readSeat({ ...BLOCKED, seat })).toEqual({ ok: false, field: 'seat' });
    expect(readSeat({ ...BLOCKED, row: 'К' })).toEqual({ ok: false, field: 'row' });
    expect(readSeat({ ...BLOCKED, section: '208\u200b' })).toEqual({ ok: false, field: 'section' });
    expect(readSeat({ ...BLOCKED, seatType: 'balcony' })).toEqual({ ok: false, field: 'seatType' });
    // A section keeps the venue's words; blocked seats compare without case.
    expect(readSeat({ ...BLOCKED, section: 'Skyline  Suite 12' })).toMatchObject({
      ok: true,
      seat: { section: 'Skyline Suite 12' },
    });
    expect(
      isBlockedSeat([{ ...BLOCKED, section: 'skyline suite 12' }], { ...BLOCKED, section: 'Skyline Suite 12' }),
    ).toBe(true);
  });

  it('signs fan ids so that a made-up, altered or foreign token is refused', () => {
    const fans = fanIdsWithKey(Buffer.alloc(32, 1));
    const { userId, fanToken } = fans.issue();
    expect(userId).toMatch(/^fan-[0-9a-f]{32}$/);
    expect(fans.verify(fanToken)).toBe(userId);
    // Checked once, known after (a lookup): the same answer.
    expect(fans.verify(fanToken)).toBe(userId);
    const flipped = fanToken.slice(0, -1) + (fanToken.endsWith('A') ? 'B' : 'A');
    expect(fans.verify(flipped)).toBeNull();
    expect(fans.verify(`fan-${'0'.repeat(32)}.${fanToken.slice(37)}`)).toBeNull();
    expect(fans.verify(userId)).toBeNull();
    expect(fans.verify(undefined)).toBeNull();
    expect(fanIdsWithKey(Buffer.alloc(32, 2)).verify(fanToken)).toBeNull();
  });
});

type QueueJoin = Parameters<DeviceServerEvents['queue join']>[0];

describeEachDb('attendee path hardening (issue 27 §4–§7)', (t) => {
  let url = '';
  let cookie = '';
  let slugDate = '';
  let liveId = '';
  const pool = new SocketPool(() => url);
  const joins: QueueJoin[] = [];
  const kicks: string[] = [];
  const queues: Record<string, string[]> = { cam1: [], cam2: [] };
  let host: TestHost;
  const report = (camera: string) => host.emit('report', { camera, queue: [...queues[camera]] });
  const defaults = () => ({ ...t().config.publicLimits });

  beforeAll(async () => {
    url = await listenUrl(t());
    cookie = await t().adminCookie();
    // Two cameras cover every seat of the venue: a fan may be sent to either (the shorter queue).
    host = await pool.host('hardening-host', [{ camera: 'cam1' }, { camera: 'cam2' }]);
    host.on('queue join', (p, ack) => {
      joins.push(p);
      const q = queues[p.camera];
      if (!q.includes(p.userId)) q.push(p.userId);
      report(p.camera);
      ack({ ok: true, position: q.indexOf(p.userId) + 1 });
    });
    host.on('kick', ({ userId }, ack) => {
      kicks.push(userId);
      for (const camera of Object.keys(queues)) {
        queues[camera] = queues[camera].filter((u) => u !== userId);
        report(camera);
      }
      ack({ ok: true });
    });
    const live = await ensureTodayEventLive(t().app.deps);
    slugDate = live.slugDate;
    liveId = live._id;
    const form = new FormData();
    form.append('file', new Blob([venueRowDict()]), 'row_dict.txt');
    form.append('file', new Blob([JSON.stringify(venueMapFile(1, 1))]), 'cam1.json');
    form.append('file', new Blob([JSON.stringify({ ...venueMapFile(1, 1), camera: 2 })]), 'cam2.json');
    const up = await fetch(`${url}${mappingRoutes.upload.path}`, {
      method: 'POST',
      headers: { cookie, origin: url },
      body: form,
    });
    expect(up.status).toBe(200);
    expect((await t().call(mappingRoutes.reload, { cookie })).status).toBe(200);
    // Section is offered; suite is forced off by the operator; 208/K/17 is blocked.
    const saved = await t().call(partRoutes.seatOptions, {
      cookie,
      body: {
        eventIds: [liveId],
        seatType: [
          { type: 'section', enabled: true, forcedDisable: false, mode: 'grid' },
          { type: 'suite', enabled: false, forcedDisable: true, mode: 'list' },
        ],
        blockedSeats: [BLOCKED],
      },
    });
    expect(saved.status).toBe(200);
  });
  afterAll(() => pool.closeAll());

  /**
   * A fan's live stream over a real socket, as the app's EventSource holds it: its events as they
   * come (`event: <name>` and `data: <json>`), and a wait for one of them.
   */
  const openStream = async (fan: TestFan) => {
    const ctl = new AbortController();
    const res = await fetch(`${url}${attendeeAppRoutes.stream.path}?slugDate=${slugDate}&fan=${fan.fanToken}`, {
      signal: ctl.signal,
    });
    const events: { name: string; data: any; at: number }[] = [];
    const error = res.status === 200 ? '' : ((await res.json()) as { error: string }).error;
    const reading = (async () => {
      if (res.status !== 200) return;
      const decoder = new TextDecoder();
      let text = '';
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        text += decoder.decode(chunk, { stream: true });
        let end;
        while ((end = text.indexOf('\n\n')) >= 0) {
          const block = text.slice(0, end);
          text = text.slice(end + 2);
          const name = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (name && data) events.push({ name, data: JSON.parse(data), at: Date.now() });
        }
      }
    })().catch(() => undefined);
    const pushed = (name: string, match: (data: any) => boolean, after = 0) =>
      vi.waitFor(() => {
        const e = events.find((x) => x.name === name && x.at >= after && match(x.data));
        if (!e) throw new Error(`no ${name} pushed yet`);
        return e;
      });
    const close = async () => {
      ctl.abort();
      await reading;
    };
    return { status: res.status, error, events, pushed, close };
  };

  /** Starts a test at the start of a rate-limit minute, so its counts are not cut in two. */
  const freshWindow = async () => {
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 15_000) await new Promise((r) => setTimeout(r, left + 50));
  };

  it('§4 no spelling of a blocked seat joins; a seat type forced off is refused with the documents’ text', async () => {
    const fan = await newFan(t());
    const join = (seat: Record<string, string>) => joinAs(t(), fan, { slugDate, seat });
    // The event is read through a one-second cache: wait for the saved seat options.
    await vi.waitFor(async () => {
      const r = await join(BLOCKED);
      expect([r.status, r.body.error]).toEqual([422, MSG.templateParts.seatBlocked]);
    });
    const before = joins.length;
    const next = rng(27);
    const tried = new Set<string>();
    for (let i = 0; i < 120; i++) {
      const seat = {
        seatType: pick(next, TYPE_SPELLINGS),
        section: pick(next, SECTION_SPELLINGS),
        row: pick(next, ROW_SPELLINGS),
        seat: pick(next, SEAT_SPELLINGS),
      };
      tried.add(JSON.stringify(seat));
      const r = await join(seat);
      // Read as the blocked seat (422), or not read at all (400): never a place in a queue.
      if (r.status === 422) expect(r.body.error).toBe(MSG.templateParts.seatBlocked);
      else expect([r.status, r.body.error]).toEqual([400, MSG.attendeeApp.seatUnreadable]);
    }
    expect(tried.size).toBeGreaterThan(100);
    expect(joins.length).toBe(before);
    // The seat beside it, spelled with a leading zero and in lower case, joins (as the map spells it).
    const beside = await join({ seatType: 'Section', section: '208', row: 'k', seat: '018' });
    expect(beside.status).toBe(200);
    expect(joins.at(-1)!.seat).toEqual({ seatType: 'section', section: '208', row: 'K', seat: '18' });
    // A type the operator forced off (spec 2 Seat Options) is not offered: the documents' text.
    const suite = await join({ seatType: 'suite', section: '208', row: 'K', seat: '3' });
    expect([suite.status, suite.body.error]).toEqual([422, MSG.templateParts.selectSeatType]);
    const box = await join({ seatType: 'box', section: '208', row: 'K', seat: '3' });
    expect([box.status, box.body.error]).toEqual([422, MSG.templateParts.selectSeatType]);
  });

  it('§5 a join needs the fan’s own server-issued id: made-up, altered and borrowed ids reach no camera', async () => {
    const before = joins.length;
    const seat = { seatType: 'section', section: '101', row: 'A', seat: '1' };
    const body = (userId: string) => ({ slugDate, userId, seat });
    // 100 made-up fan ids, as in the report: none is taken.
    const madeUp = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        t().call(attendeeRoutes.joinQueue, { body: body(`fan-${String(i).padStart(32, '0')}`) }),
      ),
    );
    for (const r of madeUp) expect([r.status, r.body.error]).toEqual([401, MSG.attendeeApp.fanIdNeeded]);
    const fan = await newFan(t());
    const other = await newFan(t());
    // Always a different last character (a fixed 'xx' was the token itself once in 4,096 runs).
    const altered = { 'x-fan-token': fan.fanToken.slice(0, -1) + (fan.fanToken.endsWith('x') ? 'y' : 'x') };
    const r1 = await t().call(attendeeRoutes.joinQueue, { body: body(fan.userId), headers: altered });
    expect([r1.status, r1.body.error]).toEqual([401, MSG.attendeeApp.fanIdNeeded]);
    const r2 = await t().call(attendeeRoutes.joinQueue, { body: body(fan.userId), headers: other.headers });
    expect([r2.status, r2.body.error]).toEqual([403, MSG.attendeeApp.fanIdMismatch]);
    // The queue position is the fan's own too.
    const pos = await t().call(attendeeAppRoutes.queuePosition, { query: { userId: fan.userId } });
    expect([pos.status, pos.body.error]).toEqual([401, MSG.attendeeApp.fanIdNeeded]);
    const pos2 = await t().call(attendeeAppRoutes.queuePosition, {
      query: { userId: fan.userId },
      headers: other.headers,
    });
    expect([pos2.status, pos2.body.error]).toEqual([403, MSG.attendeeApp.fanIdMismatch]);
    expect(joins.length).toBe(before);
    expect((await joinAs(t(), fan, { slugDate, seat })).status).toBe(200);
  });

  it('§5 one queue place per fan: joins at once take one place; a join from another seat moves the fan', async () => {
    const fan = await newFan(t());
    const seats = ['1', '2', '3', '4', '5', '6', '7', '8'].map((seat) => ({
      seatType: 'section',
      section: '102',
      row: 'B',
      seat,
    }));
    const answers = await Promise.all(seats.map((seat) => joinAs(t(), fan, { slugDate, seat })));
    for (const a of answers)
      if (a.status !== 200) expect([a.status, a.body.error]).toEqual([409, MSG.attendeeApp.joinUnderWay]);
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThan(0);
    const places = () => Object.values(queues).filter((q) => q.includes(fan.userId)).length;
    expect(places()).toBe(1);
    // One after another, each to the camera with the shorter queue: the fan is in one queue only.
    for (const seat of seats) {
      const r = await joinAs(t(), fan, { slugDate, seat });
      expect(r.status).toBe(200);
      expect(places()).toBe(1);
    }
    const where = Object.keys(queues).find((c) => queues[c].includes(fan.userId))!;
    const other = where === 'cam1' ? 'cam2' : 'cam1';
    // Make the other camera's queue the shorter one: the next join moves the fan there.
    while (queues[where].length <= queues[other].length + 1) queues[where].push(`someone-else-${queues[where].length}`);
    report(where);
    await vi.waitFor(() => expect(t().app.deps.cameras.get(where)!.queue.length).toBe(queues[where].length));
    const moved = await joinAs(t(), fan, { slugDate, seat: seats[0] });
    expect(moved.status).toBe(200);
    expect(moved.body.camera).toBe(other);
    expect(kicks).toContain(fan.userId);
    expect(places()).toBe(1);
    queues[where] = queues[where].filter((u) => !u.startsWith('someone-else'));
    report(where);
  });

  it('§5 a camera queue takes at most QUEUE_MAX fans, then says it is full', async () => {
    const limits = t().app.deps.config.publicLimits;
    const saved = defaults();
    const longest = Math.max(...Object.values(queues).map((q) => q.length));
    limits.queueMax = longest + 2;
    try {
      const seat = { seatType: 'section', section: '103', row: 'C', seat: '9' };
      const answers = [];
      for (let i = 0; i < 8; i++) answers.push(await joinAs(t(), await newFan(t()), { slugDate, seat }));
      const full = answers.filter((a) => a.status !== 200);
      expect(full.length).toBeGreaterThan(0);
      for (const a of full) {
        expect(a.status).toBe(409);
        expect(a.body.error).toMatch(/^The queue of cam[12] is full, please try again in a few minutes$/);
        expect(a.headers['retry-after']).toBe('60');
      }
      for (const q of Object.values(queues)) expect(q.length).toBeLessThanOrEqual(limits.queueMax);
    } finally {
      Object.assign(limits, saved);
    }
  });

  /** A request from one client address (as phones behind one Wi-Fi address are). */
  const from = (
    address: string,
    path: string,
    headers: Record<string, string> = {},
    method = 'GET',
    payload?: string,
  ) => t().app.inject({ method: method as 'GET', url: path, remoteAddress: address, headers, payload });

  it('§6 every /api/public route is limited per address; a fan over its own limit is refused alone', async () => {
    await freshWindow();
    const limits = t().app.deps.config.publicLimits;
    const saved = defaults();
    limits.perFan = 5;
    limits.perAddress = 40;
    try {
      const address = '10.27.6.1';
      const issued = await from(address, '/api/public/fan', {}, 'POST');
      expect(issued.statusCode).toBe(200);
      const greedy = JSON.parse(issued.body) as { userId: string; fanToken: string };
      const calm = JSON.parse((await from(address, '/api/public/fan', {}, 'POST')).body) as typeof greedy;
      const ask = (fan: typeof greedy) =>
        from(address, `/api/public/queue/position?userId=${fan.userId}`, { 'x-fan-token': fan.fanToken });
      const greedyAnswers = [];
      for (let i = 0; i < 12; i++) greedyAnswers.push((await ask(greedy)).statusCode);
      expect(greedyAnswers.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
      expect(greedyAnswers.slice(5)).toEqual(Array(7).fill(429));
      const refused = await ask(greedy);
      expect(JSON.parse(refused.body).error).toBe(MSG.common.tooManyRequests);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // The fan next to it, on the same address, is not refused: the greedy one's refusals did not count there.
      expect((await ask(calm)).statusCode).toBe(200);
      expect((await from(address, '/api/public/event')).statusCode).toBe(200);

      // The address's ceiling: then every public route answers 429, whichever module registered it.
      for (let i = 0; i < 40; i++) await from(address, '/api/public/event');
      const publicRoutes = t().app.routeDefs.filter((d) => d.path.startsWith('/api/public/'));
      expect(publicRoutes.length).toBeGreaterThanOrEqual(12);
      for (const def of publicRoutes) {
        const path = buildPath(def.path, { id: 'x', slugDate, language: 'english' });
        const r = await from(address, path, { 'x-fan-token': calm.fanToken }, def.method);
        expect([def.path, r.statusCode]).toEqual([def.path, 429]);
      }
      // Another address is not affected.
      expect((await from('10.27.6.2', '/api/public/event')).statusCode).toBe(200);
    } finally {
      Object.assign(limits, saved);
    }
  });

  it('§6 streams: a fan token is needed; caps per fan (429), per address and per server (503 with Retry-After)', async () => {
    const limits = t().app.deps.config.publicLimits;
    const saved = defaults();
    limits.streamsPerFan = 2;
    limits.streamsPerAddress = 3;
    const open: AbortController[] = [];
    const stream = async (fan?: TestFan) => {
      const ctl = new AbortController();
      const res = await fetch(
        `${url}${attendeeAppRoutes.stream.path}?slugDate=${slugDate}${fan ? `&fan=${fan.fanToken}` : ''}`,
        { signal: ctl.signal },
      );
      if (res.status === 200) open.push(ctl);
      const error = res.status === 200 ? '' : ((await res.json()) as { error: string }).error;
      return { status: res.status, retryAfter: res.headers.get('retry-after'), error };
    };
    try {
      expect(await stream()).toMatchObject({ status: 401, error: MSG.attendeeApp.fanIdNeeded });
      const a = await newFan(t());
      const b = await newFan(t());
      expect((await stream(a)).status).toBe(200);
      expect((await stream(a)).status).toBe(200);
      expect(await stream(a)).toEqual({ status: 429, retryAfter: '30', error: MSG.attendeeApp.tooManyFanStreams });
      expect((await stream(b)).status).toBe(200);
      expect(await stream(b)).toEqual({ status: 503, retryAfter: '30', error: MSG.attendeeApp.tooManyStreams });
      // A closed stream frees its place.
      open.shift()!.abort();
      await vi.waitFor(async () => expect((await stream(b)).status).toBe(200));
      // The server's own ceiling (20,000 by default).
      limits.streamsPerAddress = 100;
      limits.maxStreams = t().app.deps.attendeeFeed.size();
      expect(await stream(await newFan(t()))).toEqual({
        status: 503,
        retryAfter: '30',
        error: MSG.attendeeApp.tooManyStreams,
      });
    } finally {
      for (const c of open) c.abort();
      Object.assign(limits, saved);
    }
  });

  it('issue 30, bad input under load: streams in a loop, made-up ids and 1 MB bodies are refused alone, with the catalogue’s texts', async () => {
    await freshWindow();
    const config = t().app.deps.config;
    const savedAnon = config.publicRateLimit;
    // The crowd on one address (real sockets from 127.0.0.1, as a stadium's Wi-Fi), each holding its stream.
    const calm = await Promise.all(Array.from({ length: 20 }, () => newFan(t())));
    const streams = await Promise.all(calm.map((fan) => openStream(fan)));
    expect(streams.map((s) => s.status)).toEqual(Array(20).fill(200));
    const abuser = await newFan(t());
    const abuserStreams: Awaited<ReturnType<typeof openStream>>[] = [];
    const post = (path: string, headers: Record<string, string>, body: string) =>
      fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      }).then(async (r) => [r.status, ((await r.json()) as { error?: string }).error ?? ''] as const);
    const seat = (i: number) => ({ seatType: 'section', section: '104', row: 'F', seat: String(i + 1) });
    const joinBody = (userId: string, i: number, pad = '') =>
      JSON.stringify({ slugDate, userId, seat: seat(i), ...(pad ? { pad } : {}) });
    const joinPath = attendeeRoutes.joinQueue.path;
    const before = joins.length;
    try {
      const [abuse, crowd] = await Promise.all([
        // The abuser, all at once: streams in a loop, joins with made-up ids (no token, a forged
        // one), and 1 MB bodies with its own valid token.
        Promise.all([
          (async () => {
            for (let i = 0; i < 12; i++) abuserStreams.push(await openStream(abuser));
            return abuserStreams.map((s) => [s.status, s.error] as const);
          })(),
          Promise.all(
            Array.from({ length: 30 }, (_, i) =>
              post(
                joinPath,
                i % 2 ? { 'x-fan-token': `fan-${'0'.repeat(32)}.forged` } : {},
                joinBody(`fan-made-up-${i}`, i),
              ),
            ),
          ),
          Promise.all(
            Array.from({ length: 10 }, (_, i) =>
              post(joinPath, abuser.headers, joinBody(abuser.userId, i, 'x'.repeat(1024 * 1024))),
            ),
          ),
        ]),
        // The crowd, meanwhile, as the app: the seat picker, the join, its place three times.
        Promise.all(
          calm.map(async (fan, i) => {
            const statuses: number[] = [];
            const seats = await fetch(`${url}${attendeeAppRoutes.seats.path}?seatType=section`, {
              headers: fan.headers,
            });
            statuses.push(seats.status);
            statuses.push((await post(joinPath, fan.headers, joinBody(fan.userId, i)))[0]);
            for (let k = 0; k < 3; k++) {
              const r = await fetch(`${url}${attendeeAppRoutes.queuePosition.path}?userId=${fan.userId}`, {
                headers: fan.headers,
              });
              statuses.push(r.status);
            }
            return statuses;
          }),
        ),
      ]);
      const [abuserStreamAnswers, madeUp, huge] = abuse;
      const fanStreams = config.publicLimits.streamsPerFan;
      expect(abuserStreamAnswers).toEqual([
        ...Array(fanStreams).fill([200, '']),
        ...Array(12 - fanStreams).fill([429, MSG.attendeeApp.tooManyFanStreams]),
      ]);
      expect(madeUp).toEqual(Array(30).fill([401, MSG.attendeeApp.fanIdNeeded]));
      expect(huge).toEqual(Array(10).fill([413, MSG.common.bodyTooLarge(16)]));
      // Nothing of the abuser reached a camera; every fan beside it was answered as usual.
      expect(crowd).toEqual(Array(20).fill([200, 200, 200, 200, 200]));
      expect(
        joins
          .slice(before)
          .map((j) => j.userId)
          .sort(),
      ).toEqual(calm.map((f) => f.userId).sort());
      // Their streams stayed open: each has its place pushed, and a save reaches every one.
      await Promise.all(streams.map((s) => s.pushed('queue', (d) => d.camera !== null)));
      const savedAt = Date.now();
      const colors = { ...DEFAULT_COLORS, theme: { ...DEFAULT_COLORS.theme, backgroundColor: '#0b1f3c' } };
      const save = await t().call(templateRoutes.colors, { cookie, body: { eventIds: [liveId], colors } });
      expect(save.status).toBe(200);
      await Promise.all(streams.map((s) => s.pushed('template', () => true, savedAt)));

      // Made-up ids without a token in a loop use up only their own budget: phones arriving behind
      // them on the same address still get their fan ids, and fans with one are answered.
      config.publicRateLimit = 5;
      const address = '10.30.0.9';
      const answers = [];
      for (let i = 0; i < 8; i++) {
        const r = await from(
          address,
          joinPath,
          { 'content-type': 'application/json' },
          'POST',
          joinBody(`fan-x-${i}`, i),
        );
        answers.push([r.statusCode, JSON.parse(r.body).error]);
      }
      expect(answers).toEqual([
        ...Array(5).fill([401, MSG.attendeeApp.fanIdNeeded]),
        ...Array(3).fill([429, MSG.common.tooManyRequests]),
      ]);
      const arriving = await from(address, attendeeAppRoutes.fan.path, {}, 'POST');
      expect(arriving.statusCode).toBe(200);
      const { fanToken } = JSON.parse(arriving.body) as { fanToken: string };
      expect((await from(address, attendeeRoutes.event.path, { 'x-fan-token': fanToken })).statusCode).toBe(200);
    } finally {
      config.publicRateLimit = savedAnon;
      await Promise.all([...streams, ...abuserStreams].map((s) => s.close()));
      for (const c of Object.keys(queues)) {
        queues[c] = queues[c].filter((u) => !calm.some((f) => f.userId === u));
        report(c);
      }
    }
  });

  it('issue 30 §3: a queued fan’s place and its photo are pushed on its own stream, within a second of the change', async () => {
    const fan = await newFan(t());
    const { status, events, pushed, close } = await openStream(fan);
    expect(status).toBe(200);
    try {
      // On opening: where the fan is now (in no queue).
      await pushed('queue', (d) => d.camera === null && d.state === 'none');
      // Someone ahead in every queue, so that the fan's turn is a change of its answer.
      for (const c of Object.keys(queues)) {
        queues[c].push(`ahead-${c}`);
        report(c);
      }
      const joined = await joinAs(t(), fan, {
        slugDate,
        seat: { seatType: 'section', section: '104', row: 'F', seat: '1' },
      });
      expect(joined.status).toBe(200);
      const camera = joined.body.camera as string;
      await pushed('queue', (d) => d.camera === camera && d.position === queues[camera].indexOf(fan.userId) + 1);
      // The ones ahead had their photo: the host's report reaches the phone within a second.
      queues[camera] = queues[camera].filter((u) => u === fan.userId);
      const reportedAt = Date.now();
      report(camera);
      const live = await pushed('queue', (d) => d.camera === camera && d.position === 1, reportedAt);
      expect(live.data.state).toBe('live');
      expect(live.at - reportedAt).toBeLessThan(1000);
      // The photo: its id comes on the stream, as soon as it is stored.
      const image = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#345' } })
        .jpeg()
        .toBuffer();
      const up = await uploadPhoto(url, {
        metadata: { slugDate, userId: fan.userId, camera, section: '104', row: 'F', seat: '1' },
        image,
      });
      expect(up.status).toBe(200);
      await pushed('photo', (d) => d._id === up.body._id);
      // Reports that leave the fan's answer as it is push nothing to it (fans joining behind it);
      // the next one that changes it (a fan ahead) pushes once.
      const seen = events.length;
      const since = Date.now();
      queues[camera] = [fan.userId, 'behind-1'];
      report(camera);
      queues[camera] = [fan.userId, 'behind-1', 'behind-2'];
      report(camera);
      queues[camera] = ['ahead-1', fan.userId, 'behind-1', 'behind-2'];
      report(camera);
      // (Since these reports: the fan was second once before, when it joined behind 'ahead-…'.)
      await pushed('queue', (d) => d.camera === camera && d.position === 2, since);
      expect(
        events
          .slice(seen)
          .filter((e) => e.name === 'queue')
          .map((e) => [e.data.position, e.data.state]),
      ).toEqual([[2, 'next']]);
    } finally {
      await close();
      for (const c of Object.keys(queues)) {
        queues[c] = queues[c].filter((u) => u !== fan.userId && !/^(ahead|behind)-/.test(u));
        report(c);
      }
    }
  });

  it('§7 the phone gets trivia questions without the right answer, and the server checks an answer', async () => {
    const q = { _id: 'Loudest fans?', question: 'Loudest fans?', answer1: 'Us', answer2: 'Them', correctAnswer: 2 };
    const added = await t().call(triviaRoutes.add, {
      cookie,
      params: { language: 'english' },
      body: { language: 'english', eventIds: [liveId], questions: [q as never] },
    });
    expect(added.status).toBe(200);
    expect(
      (await t().call(partRoutes.trivia, { cookie, body: { eventIds: [liveId], triviaEnabled: true } })).status,
    ).toBe(200);
    const asked = await t().call(triviaRoutes.publicQuestions, { params: { slugDate, language: 'english' } });
    expect(asked.body).toEqual([{ _id: q._id, question: q.question, answer1: 'Us', answer2: 'Them' }]);
    expect(JSON.stringify(asked.body)).not.toContain('correctAnswer');
    const answer = (questionId: string, a: 1 | 2) =>
      t().call(attendeeAppRoutes.triviaAnswer, {
        params: { slugDate, language: 'english' },
        body: { questionId, answer: a },
      });
    expect((await answer(q._id, 2)).body).toEqual({ correct: true });
    expect((await answer(q._id, 1)).body).toEqual({ correct: false });
    const gone = await answer('No such question?', 1);
    expect([gone.status, gone.body.error]).toEqual([404, MSG.attendeeApp.triviaQuestionGone]);
    const bad = await t().call(attendeeAppRoutes.triviaAnswer, {
      params: { slugDate, language: 'english' },
      body: { questionId: q._id, answer: 3 as never },
    });
    expect(bad.status).toBe(400);
    // Trivia switched off: nothing is asked, so nothing is answered.
    expect(
      (await t().call(partRoutes.trivia, { cookie, body: { eventIds: [liveId], triviaEnabled: false } })).status,
    ).toBe(200);
    expect((await answer(q._id, 2)).status).toBe(404);
  });
});
