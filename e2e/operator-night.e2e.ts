import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { MSG } from '@stadiumcam/contract';
import { albumPage, openAlbum } from './fixtures/album.ts';
import { startHost, uploadPhoto, type FakeHost } from './fixtures/host.ts';
import { ADMIN_PASSWORD, startStack, type Stack } from './fixtures/stack.ts';
import { makeEvent, makePhoto } from '../apps/server/src/test/factories.ts';

dayjs.extend(utc);
dayjs.extend(timezone);

const ADMIN = { username: 'admin', password: ADMIN_PASSWORD };
const CAMERAS = ['cam1', 'cam2', 'cam3', 'cam4'];

// Browser-side helpers as source text: the e2e files compile without the DOM's types.

/** Frames each camera's stream has drawn in this page (the tile counts them). */
const framesIn = async (page: Page) =>
  page.evaluate<Record<string, number>>(
    `Object.fromEntries(${JSON.stringify(CAMERAS)}.map((c) => [c, Number(document.querySelector('[data-testid="stream-' + c + '"]')?.getAttribute('data-frames') ?? 0)]))`,
  );

/**
 * Records the busy (data-loading) transitions of the buttons `ids` from now on: a MagicShot can
 * arrive within a few hundred milliseconds, faster than a locator's polling.
 */
const watchBusy = (page: Page, ids: string[]) =>
  page.evaluate(`{
    window.busyLog = {};
    for (const id of ${JSON.stringify(ids)}) {
      const el = document.querySelector('[data-testid="' + id + '"]');
      const log = (window.busyLog[id] = []);
      new MutationObserver(() => {
        const state = el.hasAttribute('data-loading') ? 'busy' : 'idle';
        if (log.at(-1) !== state) log.push(state);
      }).observe(el, { attributes: true, attributeFilter: ['data-loading'] });
    }
  }`);
const busyLog = (page: Page) => page.evaluate<Record<string, string[]>>('window.busyLog');

/** Screenshots for docs/ (looked at by hand): the mouse parked off the content first. */
async function docShot(page: Page, name: string) {
  await page.mouse.move(1, 1);
  await page.screenshot({ path: `docs/screenshots/${name}.png` });
}

const until = async (check: () => boolean | Promise<boolean>, what: string, tries = 1200) => {
  for (let i = 0; i < tries; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
};

describe('the operator’s night: monitor', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ simulator: { camerasPerHost: 4, fps: 3, attendeeRate: 0.3 } });
  });
  afterAll(async () => {
    await stack?.close();
  });

  const simCameras = () => new Map([...stack.venue!.hosts[0].cameras].map(([name, cam]) => [name, cam]));
  const streaming = async (page: Page) => {
    for (const c of CAMERAS) {
      await page.locator(`[data-testid="stream-${c}"][data-live="true"]`).waitFor({ timeout: 60_000 });
    }
  };

  it('every camera streams: ≥ 80 % of each camera’s frames reach the console over 20 s (4 cameras at 3 fps)', async () => {
    const { page, context } = await stack.newPage({ login: ADMIN, path: '/monitor' });
    await streaming(page);
    const cams = simCameras();
    const due0 = Object.fromEntries(CAMERAS.map((c) => [c, cams.get(c)!.framesDue]));
    const got0 = await framesIn(page);
    // 20 s of frames at 3 fps: the simulator's frame clock says when 60 were due for each camera.
    await until(() => CAMERAS.every((c) => cams.get(c)!.framesDue - due0[c] >= 60), '60 frames due per camera');
    const got = await framesIn(page);
    for (const c of CAMERAS) {
      const due = cams.get(c)!.framesDue - due0[c];
      expect(got[c] - got0[c], `${c}: ${got[c] - got0[c]} of ${due} frames`).toBeGreaterThanOrEqual(0.8 * due);
    }
    // The fps badge is the rate this console received over the last 3 s (3 fps sent).
    for (const c of CAMERAS) {
      const fps = Number((await page.getByTestId(`fps-${c}`).textContent())?.replace(' fps', ''));
      expect(fps, `${c}: ${fps} fps`).toBeGreaterThanOrEqual(2);
      expect(fps, `${c}: ${fps} fps`).toBeLessThanOrEqual(3);
    }
    await context.close();
  }, 120_000);

  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 1920, height: 1080 },
  ]) {
    it(`monitor screenshot at ${viewport.width}×${viewport.height}`, async () => {
      const { page, context } = await stack.newPage({ login: ADMIN, path: '/monitor', viewport });
      await streaming(page);
      await page.locator('[data-testid^="livetime-"]').first().waitFor({ timeout: 45_000 });
      // A still of a streaming monitor: every fps badge shows the rate of the last 3 s.
      await until(async () => {
        const fps = await Promise.all(CAMERAS.map((c) => page.getByTestId(`fps-${c}`).textContent()));
        return fps.every((f) => f !== '0 fps');
      }, 'every camera’s fps above 0');
      await docShot(page, `monitor-${viewport.width}`);
      await context.close();
    }, 120_000);
  }

  it('layout at 1024 px with the menu open: no tile clipped, the label above the picture, not over it', async () => {
    const { page, context } = await stack.newPage({
      login: ADMIN,
      path: '/monitor',
      viewport: { width: 1024, height: 768 },
    });
    await streaming(page);
    await page.getByRole('link', { name: 'Calendar' }).waitFor(); // the side menu is open
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(1024);
    const grid = (await page.getByTestId('camera-grid').boundingBox())!;
    const menu = (await page.locator('.mantine-AppShell-navbar').boundingBox())!;
    expect(grid.x).toBeGreaterThanOrEqual(menu.x + menu.width);
    for (const c of CAMERAS) {
      const tile = (await page.getByTestId(`camera-tile-${c}`).boundingBox())!;
      expect(tile.x, c).toBeGreaterThanOrEqual(Math.max(grid.x, menu.x + menu.width) - 1);
      expect(tile.x + tile.width, c).toBeLessThanOrEqual(Math.min(1024, grid.x + grid.width) + 1);
      // Every control of the tile is inside it, the Take photo button included.
      for (const id of [`shoot-${c}`, `fps-${c}`]) {
        const b = (await page.getByTestId(id).boundingBox())!;
        expect(b.x + b.width, id).toBeLessThanOrEqual(tile.x + tile.width + 1);
      }
      // The camera burns its own text into the frame's top-left corner: the label bar sits above.
      const bar = (await page.getByTestId(`label-bar-${c}`).boundingBox())!;
      const frame = (await page.getByTestId(`frame-${c}`).boundingBox())!;
      expect(bar.y + bar.height, c).toBeLessThanOrEqual(frame.y + 0.5);
    }
    await context.close();
  }, 120_000);

  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 1024, height: 768 },
  ]) {
    it(`the full seat caption on monitor tiles at ${viewport.width} px, with the menu open: not clipped`, async () => {
      const { page, context } = await stack.newPage({ login: ADMIN, path: '/monitor', viewport });
      await streaming(page);
      await page.getByRole('link', { name: 'Calendar' }).waitFor(); // the side menu is open
      // Attendees arrive: some camera shows its current attendee's seat.
      await page.locator('[data-testid^="srs-"]', { hasText: 'Seat' }).first().waitFor({ timeout: 45_000 });
      // Read in one go (attendees move on): each seat caption, whether it fits its box, and that
      // it stays left of the zoom and minimap and inside its tile.
      const captions = await page.evaluate<
        { camera: string; text: string; fits: boolean; beforePanZoom: boolean; inTile: boolean }[]
      >(`${JSON.stringify(CAMERAS)}.map((camera) => {
        const el = document.querySelector('[data-testid="srs-' + camera + '"]');
        const r = el.getBoundingClientRect();
        const pz = document.querySelector('[data-testid="panzoom-' + camera + '"]')?.getBoundingClientRect();
        const tile = document.querySelector('[data-testid="camera-tile-' + camera + '"]').getBoundingClientRect();
        return {
          camera,
          text: el.textContent,
          fits: el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight + 1,
          beforePanZoom: !pz || r.right <= pz.left + 0.5,
          inTile: r.left >= tile.left && r.right <= tile.right,
        };
      })`);
      const seated = captions.filter((c) => c.text.includes('Seat'));
      expect(seated.length).toBeGreaterThan(0);
      for (const c of seated) {
        expect(c.text, c.camera).toMatch(/^Sec \S+ · Row \S+ · Seat \S+$/);
        expect(c, c.camera).toMatchObject({ fits: true, beforePanZoom: true, inTile: true });
      }
      const tile = page.getByTestId(`camera-tile-${seated[0].camera}`);
      await page.mouse.move(1, 1);
      await tile.screenshot({ path: `e2e/artifacts/monitor-tile-seat-${viewport.width}.png` });
      await context.close();
    }, 120_000);
  }

  it('a camera that is on but sends no frames says "No signal"; one that is off says "CAMERA OFF"', async () => {
    // A host whose camera is on but whose stream is stuck (no frames at all).
    const host = await startHost(stack, { hostId: 'stuck-host', cameras: ['cam9'] });
    const { page, context } = await stack.newPage({ login: ADMIN, path: '/monitor' });
    await page.getByTestId('no-signal-cam9').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('no-signal-cam9').textContent()).toBe('No signal');
    expect(await page.getByTestId('camera-off-cam9').count()).toBe(0);
    // The streaming cameras are not affected.
    expect(await page.getByTestId('no-signal-cam1').count()).toBe(0);
    host.report({ camera: 'cam9', status: 'off' });
    await page.getByTestId('camera-off-cam9').waitFor();
    expect(await page.getByTestId('camera-off-cam9').textContent()).toBe('CAMERA OFF');
    expect(await page.getByTestId('no-signal-cam9').count()).toBe(0);
    await context.close();
    host.stop();
  }, 90_000);

  /** MagicShots stored for a camera so far (the album's Magicshots tab, through the API). */
  const magicshots = async (page: Page) => {
    const current = (await (await page.request.get('/api/events/stadiumcam')).json()) as { slugDate: string };
    const res = await page.request.get(
      `/api/snapshots?type=magicshots&page=1&pageSize=100&slugDate[]=${current.slugDate}`,
    );
    return ((await res.json()) as { items: { camera: string; userId: string }[] }).items;
  };

  it('Take photo on a tile is busy from the click until its MagicShot has arrived', async () => {
    const { page, context } = await stack.newPage({ login: ADMIN, path: '/monitor' });
    await streaming(page);
    const before = (await magicshots(page)).filter((s) => s.camera === 'cam2').length;
    await watchBusy(page, ['shoot-cam2']);
    await page.getByTestId('shoot-cam2').click();
    // Not the 3-photos rule (attendee photos take 6 s turns) nor the 10 s fallback: its photo ends it.
    await until(async () => (await busyLog(page))['shoot-cam2'].join() === 'busy,idle', 'busy, then idle', 180);
    const after = (await magicshots(page)).filter((s) => s.camera === 'cam2');
    expect(after.length).toBe(before + 1);
    expect(after[0].userId).toMatch(/^MAGIC-/);
    await context.close();
  }, 120_000);

  it('the global Take photo shoots with every camera that is on and is busy until all their MagicShots arrived; their toasts at most 3 at once', async () => {
    const { page, context } = await stack.newPage({ login: ADMIN, path: '/monitor' });
    await streaming(page);
    const before = (await magicshots(page)).length;
    const ids = ['shoot-all', ...CAMERAS.map((c) => `shoot-${c}`)];
    await watchBusy(page, ids);
    // Toasts (spec 1 §9): every one shown is noted, and the most shown at once (leaving ones,
    // already fading out, not counted).
    await page.evaluate(`{
      window.toasts = { texts: new Set(), most: 0 };
      new MutationObserver(() => {
        const shown = [...document.querySelectorAll('.mantine-Notification-root')].filter((n) => n.closest('[style*="opacity: 0"]') === null);
        for (const n of shown) window.toasts.texts.add(n.textContent);
        window.toasts.most = Math.max(window.toasts.most, shown.length);
      }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['style'] });
    }`);
    await page.getByTestId('shoot-all').click();
    await until(
      async () => {
        const log = await busyLog(page);
        return ids.every((id) => log[id].join() === 'busy,idle');
      },
      'every button busy, then idle',
      180,
    );
    // One MagicShot toast per camera, never more than 3 toasts at once (the rest wait their turn).
    const toasts = () =>
      page.evaluate<{ texts: string[]; most: number }>(
        '({ texts: [...window.toasts.texts], most: window.toasts.most })',
      );
    await until(
      async () =>
        new Set((await toasts()).texts.filter((t) => /^MagicShot from cam\d is in the album$/.test(t))).size ===
        CAMERAS.length,
      'a MagicShot toast per camera',
    );
    expect((await toasts()).most).toBeLessThanOrEqual(3);
    const after = await magicshots(page);
    expect(after.length).toBe(before + CAMERAS.length);
    expect(new Set(after.slice(0, CAMERAS.length).map((s) => s.camera))).toEqual(new Set(CAMERAS));
    await context.close();
  }, 120_000);
});

describe('the operator’s night: a light console', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  const get = async (p: string, encoding: string, cookie = '') => {
    const res = await fetch(`${stack.url}${p}`, { headers: { 'Accept-Encoding': encoding, cookie } });
    const body = Buffer.from(await res.arrayBuffer());
    return { res, body, encoding: res.headers.get('content-encoding'), cache: res.headers.get('cache-control') };
  };

  it('serves the console compressed: hashed files immutable for a year, index.html always revalidated', async () => {
    const index = await get('/', 'br, gzip');
    expect(index.encoding).toBe('br');
    expect(index.cache).toBe('no-cache');
    const deep = await get('/album?tab=shared', 'gzip');
    expect(deep.cache).toBe('no-cache');
    expect(deep.res.headers.get('content-type')).toContain('text/html');
    const html = (await get('/', 'identity')).body.toString();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)![1];
    const br = await get(script, 'br, gzip');
    expect(br.encoding).toBe('br');
    expect(br.cache).toBe('public, max-age=31536000, immutable');
    const gz = await get(script, 'gzip');
    expect(gz.encoding).toBe('gzip');
    const plain = await get(script, 'identity');
    expect(plain.encoding).toBeNull();
    // fetch() decodes the body; the length on the wire is the header's.
    expect(Number(br.res.headers.get('content-length'))).toBeLessThan(plain.body.length / 3);
    // API answers too (the master template with its language table is several KiB of JSON).
    const login = await fetch(`${stack.url}/api/users/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: stack.url },
      body: JSON.stringify(ADMIN),
    });
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const api = await get('/api/event/stadiumcam', 'br, gzip', cookie);
    expect(api.res.status).toBe(200);
    expect(api.encoding).toBe('br');
  });

  it('loads each screen as its own chunk, with a favicon and a title per route', async () => {
    // The build's manifest says which file holds each screen (no guessing at the bundler's names).
    const manifest = JSON.parse(
      await readFile(path.join(stack.config.webDist, '.vite/manifest.json'), 'utf8'),
    ) as Record<string, { file: string }>;
    const chunk = (screen: string) => `/${manifest[`src/modules/${screen}.page.tsx`].file}`;
    const [login, calendar, monitor, album] = [
      'auth/login',
      'events/calendar',
      'monitor/monitor',
      'snapshots/album',
    ].map(chunk);
    // Stable, readable names: each screen's chunk is named after its page module.
    expect(monitor).toMatch(/^\/assets\/monitor\.page-[\w-]+\.js$/);
    expect(album).toMatch(/^\/assets\/album\.page-[\w-]+\.js$/);
    expect(new Set([login, calendar, monitor, album]).size).toBe(4);

    const { page, context } = await stack.newPage();
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('.js')) scripts.push(new URL(r.url()).pathname);
    });
    await page.goto('/login');
    await page.getByRole('button', { name: 'Login' }).waitFor();
    expect(await page.title()).toBe('Login · StadiumCam');
    expect(await page.locator('link[rel="icon"]').getAttribute('href')).toBe('/favicon.svg');
    const icon = await page.request.get('/favicon.svg');
    expect(icon.headers()['content-type']).toContain('image/svg+xml');
    expect(scripts).toContain(login);
    expect(scripts).not.toContain(monitor);
    expect(scripts).not.toContain(album);
    await page.getByLabel('Username', { exact: true }).fill(ADMIN.username);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL(`${stack.url}/`);
    await until(async () => (await page.title()) === 'Calendar · StadiumCam', 'the calendar title');
    // The title is set as the route matches, before the screen's chunk is asked for: wait on the
    // screen itself.
    await until(() => scripts.includes(calendar), 'the calendar chunk');
    expect(scripts).not.toContain(monitor);
    expect(scripts).not.toContain(album);
    await page.goto('/monitor');
    await until(async () => (await page.title()) === 'Monitor · StadiumCam', 'the monitor title');
    await until(() => scripts.includes(monitor), 'the monitor chunk');
    expect(scripts).not.toContain(album);
    await page.goto('/album');
    await until(async () => (await page.title()) === 'Album · StadiumCam', 'the album title');
    await until(() => scripts.includes(album), 'the album chunk');
    await context.close();
  });
});

describe('the operator’s night: forms and dialogs', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('the role editor asks before a route change loses its edits: Stay keeps them, Leave goes', async () => {
    const { page, context } = await stack.newPage({ login: ADMIN, path: '/admin/roles' });
    await page.getByRole('button', { name: 'Add new role' }).waitFor();
    // No edits: the menu leaves without asking.
    await page.getByRole('link', { name: 'Album' }).click();
    await page.waitForURL((u) => u.pathname === '/album');
    await page.goBack();
    // A new role is an edit until it is saved.
    await page.getByRole('button', { name: 'Add new role' }).click();
    const add = page.getByRole('dialog', { name: 'Add New Role' });
    await add.getByLabel('Role name').fill('Night shift');
    await add.getByRole('button', { name: 'Add' }).click();
    await add.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'Night shift' }).waitFor();
    await page.getByRole('checkbox', { name: 'Photos:write', exact: true }).click();

    await page.getByRole('link', { name: 'Album' }).click();
    const prompt = page.getByRole('dialog', { name: 'Unsaved changes' });
    await prompt.getByText('You have changes that are not saved. Leave this page and lose them?').waitFor();
    await prompt.getByRole('button', { name: 'Stay' }).click();
    await prompt.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe('/admin/roles');
    expect(await page.getByRole('checkbox', { name: 'Photos:write', exact: true }).isChecked()).toBe(true);

    await page.getByRole('link', { name: 'Album' }).click();
    await prompt.getByRole('button', { name: 'Leave' }).click();
    await page.waitForURL((u) => u.pathname === '/album');
    await context.close();
  });

  it('metric cards fit 6 digits; the early-end dialog says "tomorrow" for an end after midnight, in the event’s zone with am/pm', async () => {
    const TZ = 'America/Winnipeg';
    // "Today" and "01:00 tomorrow" as the browser reads the zone, since it is the browser that
    // decides "tomorrow": Chromium's zone data can be newer than Node's (here Winnipeg stays on
    // daylight time this winter in Chromium's, not in Node's 2025c), and in the hour where the two
    // disagree on the date a Node-side "tomorrow" was the browser's today (a CI run at 05:30 UTC).
    const probe = await stack.browser.newPage();
    const offset = await probe.evaluate<number>(`(() => {
      const now = new Date(Math.floor(Date.now() / 60000) * 60000); // a whole minute: the offset is exact
      const p = Object.fromEntries(new Intl.DateTimeFormat('en-US', { timeZone: '${TZ}', hourCycle: 'h23',
        year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' })
        .formatToParts(now).map((x) => [x.type, Number(x.value)]));
      return (Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute) - now.getTime()) / 60000;
    })()`);
    await probe.close();
    const wall = dayjs.utc().add(offset, 'minute'); // the zone's wall clock, held in a UTC dayjs
    const today = wall.format('YYYY-MM-DD');
    const end = wall.add(1, 'day').startOf('day').add(1, 'hour').subtract(offset, 'minute'); // 01:00 tomorrow
    const now = dayjs();
    await makeEvent(stack.app.deps.db, `stadiumcam-${today}`, {
      id: randomUUID(),
      slug: 'stadiumcam',
      slugDate: `stadiumcam-${today}`,
      template: false,
      title: 'Late Game',
      eventStatus: 'live',
      peak: 123456,
      gameDate: today,
      startTime: now.subtract(1, 'hour').toDate(),
      endTime: end.toDate(),
      timezone: TZ,
      config: {},
    });
    const { page, context } = await stack.newPage({ login: ADMIN, path: '/monitor' });
    // Six digits with the thousands separator fit the metric card of the 240 px column.
    const peak = page.getByTestId('metric-peak');
    await peak.filter({ hasText: '123,456' }).waitFor();
    const card = (await page.getByTestId('metric-card-peak').boundingBox())!;
    const value = (await peak.boundingBox())!;
    expect(value.x + value.width).toBeLessThanOrEqual(card.x + card.width);
    expect(
      await page.evaluate<boolean>(
        `(() => { const el = document.querySelector('[data-testid="metric-peak"]'); return el.scrollWidth <= el.clientWidth; })()`,
      ),
    ).toBe(true);
    await page.getByRole('radio', { name: 'Post' }).click();
    const dialog = page.getByRole('dialog', { name: 'End the event early?' });
    // The clock and zone label as the browser's own zone data reads that instant (Chromium's tz
    // data can be newer than Node's: it is the browser that shows the time).
    const at = await page.evaluate<string>(`(() => {
      const parts = new Intl.DateTimeFormat('en-US', { timeZone: '${TZ}', hour: '2-digit', minute: '2-digit',
        second: '2-digit', hour12: true, timeZoneName: 'short' }).formatToParts(new Date('${end.toISOString()}'));
      const v = (t) => parts.find((p) => p.type === t).value;
      return v('hour') + ':' + v('minute') + ':' + v('second') + ' ' + v('dayPeriod').toLowerCase() + ' ' + v('timeZoneName');
    })()`);
    expect(at).toMatch(/^0[0-2]:00:00 am /);
    expect(await dialog.getByTestId('early-end-text').textContent()).toBe(
      `Late Game is scheduled to end at ${at} tomorrow. Set its end time to now, or only switch it to post?`,
    );
    await dialog.getByRole('button', { name: 'Only set post' }).click();
    await page.locator('[data-testid="event-status"] input[value="post"]:checked').waitFor();
    await context.close();
  });
});

describe('the operator’s night: album', () => {
  const EVENT = { slugDate: 'stadiumcam-2025-04-02', gameDate: '2025-04-02' };
  let stack: Stack;
  let ids: string[];
  let host: FakeHost;
  /** The album at this address (this event's photos unless told), as the admin. */
  const open = (path = `/album?events=${EVENT.slugDate}`, viewport?: { width: number; height: number }) =>
    openAlbum(stack, { login: ADMIN, path, viewport });

  beforeAll(async () => {
    stack = await startStack();
    host = await startHost(stack, { hostId: 'album-host', cameras: ['cam1'] });
    // A finished game with 105 photos (two pages), cam1 and cam2 alternating, newest first.
    const noon = new Date(`${EVENT.gameDate}T18:00:00Z`);
    await makeEvent(stack.app.deps.db, EVENT.slugDate, {
      id: randomUUID(),
      slug: 'stadiumcam',
      slugDate: EVENT.slugDate,
      template: false,
      title: 'Night Game',
      eventStatus: 'post',
      gameDate: EVENT.gameDate,
      startTime: noon,
      endTime: new Date(noon.getTime() + 4 * 3600_000),
      timezone: 'America/Winnipeg',
      config: {},
    });
    const jpeg = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#1d4e89' } })
      .jpeg()
      .toBuffer();
    const uri = await stack.app.deps.media.put(`${EVENT.slugDate}/seed.jpg`, jpeg);
    ids = [];
    for (let i = 0; i < 105; i++) {
      const id = randomUUID();
      ids.push(id);
      await makePhoto(stack.app.deps.db, {
        id,
        slug: 'stadiumcam',
        slugDate: EVENT.slugDate,
        userId: `fan-${i % 30}`,
        camera: i % 2 ? 'cam2' : 'cam1',
        section: '101',
        row: 'A',
        seat: String(1 + (i % 20)),
        date: new Date(noon.getTime() + 3600_000 - i * 60_000),
        thumbUri: uri,
        smallUri: uri,
        rawCroppedUri: uri,
        sharedUri: uri,
      });
    }
  });
  afterAll(async () => {
    host?.stop();
    await stack?.close();
  });

  /** A photo of this event through the real ingest path, as a camera host uploads it. */
  const upload = async (
    seat: { section: string; row: string; seat: string } = { section: '7', row: 'B', seat: '1' },
  ) => {
    const metadata = { slugDate: EVENT.slugDate, userId: 'fan-live', camera: 'cam1', ...seat };
    const jpeg = await sharp({ create: { width: 640, height: 360, channels: 3, background: '#a23b72' } })
      .jpeg()
      .toBuffer();
    return (await uploadPhoto(stack, metadata, jpeg))._id;
  };

  it('keeps tab, page, filter and events in the URL, across a reload', async () => {
    const { page, context, album } = await open();
    expect(await album.tileIds()).toHaveLength(100);
    await album.pageButton(2).click();
    await album.waitForTiles(5);
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');
    expect(new URL(page.url()).searchParams.get('events')).toBe(EVENT.slugDate);
    await page.reload();
    await album.waitForTiles(5);
    expect(await album.tileIds()).toEqual(ids.slice(100));
    // A tab change goes back to page 1 and says so in the URL.
    await album.tab(/Shared/).click();
    await until(() => new URL(page.url()).searchParams.get('tab') === 'shared', 'tab=shared');
    expect(new URL(page.url()).searchParams.get('page')).toBeNull();
    await page.getByText('No media available.').waitFor();
    // A filter in a copied link: only cam2's photos.
    await page.goto(`/album?events=${EVENT.slugDate}&filter=${encodeURIComponent('{"camera":["cam2"]}')}`);
    await album.waitForCount('all', 52);
    await album.waitForTiles(52);
    expect(await album.tileIds()).toEqual(ids.filter((_, i) => i % 2));
    await context.close();
  }, 150_000);

  it('the event selection survives a reload and a visit to another screen', async () => {
    const { page, context, album } = await open();
    // No event in the address now: the selection is the tab's own, not the current event's.
    await page.goto('/monitor');
    await page.goto('/album');
    await album.waitForTiles(100);
    await page.reload();
    await album.waitForTiles(100);
    await page
      .getByRole('button', { name: /Wed 02\/04\/2025/ })
      .first()
      .waitFor();
    expect(await album.count('all').textContent()).toBe(String(ids.length));
    await context.close();
  });

  it('the lightbox is a route: Back closes it, a copied link reopens it on the same album page', async () => {
    const { page, context, album } = await open(`/album?events=${EVENT.slugDate}&page=2`);
    await album.waitForTiles(5);
    const box = await album.openLightbox(1);
    await album.showing(ids[101]).waitFor();
    expect(new URL(page.url()).searchParams.get('photo')).toBe(ids[101]);
    // Moving to the next photo keeps the URL on the photo shown.
    await page.keyboard.press('ArrowRight');
    await album.showing(ids[102]).waitFor();
    await until(() => new URL(page.url()).searchParams.get('photo') === ids[102], 'photo in the URL');
    const link = page.url();
    await page.goBack();
    await box.waitFor({ state: 'detached' });
    expect(new URL(page.url()).searchParams.get('photo')).toBeNull();
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');
    expect(await album.tiles.count()).toBe(5);
    await context.close();

    const copied = await stack.newPage({ login: ADMIN, path: link.replace(stack.url, '') });
    const copiedAlbum = albumPage(copied.page);
    await copiedAlbum.showing(ids[102]).waitFor();
    await copied.page.keyboard.press('Escape');
    await copiedAlbum.lightbox.waitFor({ state: 'detached' });
    expect(new URL(copied.page.url()).searchParams.get('photo')).toBeNull();
    expect(await copiedAlbum.tileIds()).toEqual(ids.slice(100));
    await copied.context.close();
  });

  it('new photos wait behind "N new photos" while the pointer is on the grid; one click shows them', async () => {
    const { page, context, album } = await open();
    const first = await album.tiles.first().getAttribute('data-id');
    await album.tiles.nth(3).hover();
    const a = await upload();
    const b = await upload();
    await page.getByTestId('new-photos').filter({ hasText: '2 new photos' }).waitFor();
    // Nothing moved under the pointer.
    expect(await album.tiles.first().getAttribute('data-id')).toBe(first);
    await page.getByTestId('new-photos').click();
    await until(async () => (await album.tiles.first().getAttribute('data-id')) === b, 'the new photos on top');
    expect((await album.tileIds()).slice(0, 3)).toEqual([b, a, first]);
    expect(await page.getByTestId('new-photos').count()).toBe(0);
    // Away from the grid with nothing selected, a new photo joins at once.
    await page.mouse.move(5, 5);
    const c = await upload();
    await until(async () => (await album.tiles.first().getAttribute('data-id')) === c, 'joins at once');
    expect(await page.getByTestId('new-photos').count()).toBe(0);
    await context.close();
  });

  it('the full seat caption on album tiles at 1280 px, a long suite name included', async () => {
    const id = await upload({ section: 'Skyline Suite 12', row: 'AA', seat: '120' });
    const { page, context, album } = await open();
    const caption = album.tile(id).getByTestId('tile-caption');
    await caption.waitFor();
    expect(await caption.textContent()).toBe('Sec Skyline Suite 12 · Row AA · Seat 120');
    await album.waitForTiles(100);
    // No caption is cut: each shows all of its text, inside its tile.
    const cut = await page.evaluate<number>(
      `[...document.querySelectorAll('[data-testid="tile-caption"]')].filter((c) => c.scrollWidth > c.clientWidth + 1 || c.scrollHeight > c.clientHeight + 1).length`,
    );
    expect(cut).toBe(0);
    await context.close();
  });

  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 1920, height: 1080 },
  ]) {
    it(`album screenshot at ${viewport.width}×${viewport.height}`, async () => {
      const { page, context, album } = await open(undefined, viewport);
      await album.waitForTiles(100);
      await docShot(page, `album-${viewport.width}`);
      await context.close();
    });
  }

  /** Ids of this event's photos the server lists in a tab (what a key really changed). */
  const listed = async (page: Page, type: 'all' | 'favorites') => {
    const res = await page.request.get(`/api/snapshots?type=${type}&page=1&pageSize=100&slugDate[]=${EVENT.slugDate}`);
    return ((await res.json()) as { items: { _id: string; hidden: boolean }[] }).items;
  };

  it('grid keys: F, B, Del, D on the photo under the pointer; Space, Ctrl+A, ←/→, / and ?', async () => {
    const { page, context, album } = await open();
    await album.waitForTiles(100);
    await album.autoRefresh.uncheck({ force: true });
    const tile = album.tiles.nth(4);
    const id = (await tile.getAttribute('data-id'))!;
    await tile.hover();

    // F: favourite, on the server too; F again clears it.
    await page.keyboard.press('f');
    await until(async () => (await tile.getAttribute('data-favorite')) === 'true', 'favourite on');
    await until(async () => (await listed(page, 'favorites')).some((s) => s._id === id), 'favourite stored');
    await page.keyboard.press('f');
    await until(async () => (await tile.getAttribute('data-favorite')) === null, 'favourite off');

    // B: the ban confirmation of the tiles (spec text), then the photo is banned.
    await page.keyboard.press('b');
    const ban = page.getByRole('dialog', { name: 'Ban Photo' });
    await ban.getByText('Banning a photo will change the URL of that photo and remove it from social media').waitFor();
    await ban.getByRole('button', { name: 'Confirm' }).click();
    await until(async () => (await listed(page, 'all')).find((s) => s._id === id)?.hidden === true, 'banned');
    await album.tile(id).and(page.locator('[data-hidden]')).waitFor();

    // Del: the delete confirmation; Cancel keeps the photo.
    await album.tiles.nth(6).hover();
    await page.keyboard.press('Delete');
    const del = page.getByRole('dialog', { name: 'Are you sure you want to delete this photo?' });
    await del.getByText('You will not be able to recover this snapshot!').waitFor();
    await del.getByRole('button', { name: 'Cancel' }).click();
    await del.waitFor({ state: 'detached' });
    expect(await album.tiles.count()).toBe(100);

    // D: downloads the photo under the pointer.
    await album.tiles.nth(6).hover();
    const download = page.waitForEvent('download');
    await page.keyboard.press('d');
    expect((await download).suggestedFilename()).toMatch(/\.jpg$/);

    // Space selects the photo under the pointer; Ctrl+A the whole page.
    await album.tiles.nth(7).hover();
    await page.keyboard.press(' ');
    await album.tiles.nth(7).and(page.locator('[data-selected]')).waitFor();
    expect(await album.selected.count()).toBe(1);
    await page.keyboard.press('Control+a');
    await until(async () => (await album.selected.count()) === 100, 'the page selected');
    await page.getByRole('button', { name: 'Deselect' }).click();
    await page.mouse.move(1, 1);

    // →/←: the next and previous page, in the URL.
    await page.keyboard.press('ArrowRight');
    await until(() => new URL(page.url()).searchParams.get('page') === '2', 'page 2');
    await until(async () => (await album.tiles.count()) < 100, 'the tiles of page 2');
    await page.keyboard.press('ArrowLeft');
    await until(() => new URL(page.url()).searchParams.get('page') === null, 'page 1');

    // "/" focuses the user filter; "?" lists the keys.
    await page.keyboard.press('/');
    await until(async () => (await page.evaluate<string>('document.activeElement?.id')) === 'album-user-filter', '/');
    await page.keyboard.press('Escape');
    await page.locator('body').click({ position: { x: 2, y: 2 } });
    await page.keyboard.press('?');
    const keys = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await keys.waitFor();
    for (const key of ['F', 'B', 'Del', 'D', '← →', 'Space', 'Ctrl/⌘ + A', '/', '?']) {
      await keys.locator('kbd', { hasText: new RegExp(`^${key.replace(/[?/+]/g, '\\$&')}$`) }).waitFor();
    }
    await context.close();
  }, 150_000);

  it('lightbox: favourite, ban, download and delete the photo shown, by button and by key', async () => {
    const { page, context, album } = await open();
    await album.waitForTiles(100);
    const first = (await album.tiles.nth(10).getAttribute('data-id'))!;
    const box = await album.openLightbox(10);
    await album.showing(first).waitFor();
    const actions = box.getByTestId('lightbox-actions');

    await page.keyboard.press('f');
    await actions.locator('[aria-label="Favourite"][aria-pressed="true"]').waitFor();
    await until(async () => (await listed(page, 'favorites')).some((s) => s._id === first), 'favourite stored');
    await actions.getByRole('button', { name: 'Favourite' }).click();
    await actions.locator('[aria-label="Favourite"][aria-pressed="false"]').waitFor();

    await page.keyboard.press('b');
    await page.getByRole('dialog', { name: 'Ban Photo' }).getByRole('button', { name: 'Confirm' }).click();
    await actions.getByRole('button', { name: 'Unban Photo' }).waitFor();
    // It looks banned in the lightbox too, as on its tile.
    expect(await page.getByTestId('lightbox-banned').textContent()).toBe(MSG.album.banned);
    expect((await listed(page, 'all')).find((s) => s._id === first)?.hidden).toBe(true);
    // Unbanning asks nothing.
    await actions.getByRole('button', { name: 'Unban Photo' }).click();
    await actions.getByRole('button', { name: 'Ban Photo' }).waitFor();
    await page.getByTestId('lightbox-banned').waitFor({ state: 'detached' });

    const download = page.waitForEvent('download');
    await page.keyboard.press('d');
    expect((await download).suggestedFilename()).toMatch(/\.jpg$/);

    // Delete: after the confirmation the photo is gone and the lightbox shows the next one.
    await page.keyboard.press('Delete');
    await page
      .getByRole('dialog', { name: 'Are you sure you want to delete this photo?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await box.locator(`[data-strip-id="${first}"]`).waitFor({ state: 'detached' });
    await box.locator('[data-strip-id][data-active]').waitFor();
    expect((await listed(page, 'all')).some((s) => s._id === first)).toBe(false);
    await context.close();
  }, 120_000);

  it('lightbox: ? lists the keys, as in the grid; its times say am/pm and the event’s zone', async () => {
    const { page, context, album } = await open();
    await album.waitForTiles(100);
    const id = (await album.tiles.nth(2).getAttribute('data-id'))!;
    const box = await album.openLightbox(2);
    await album.showing(id).waitFor();

    await page.keyboard.press('?');
    const keys = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await keys.waitFor();
    for (const key of ['F', 'B', 'Del', 'D', '← →', 'Space', 'Ctrl/⌘ + A', '/', '?']) {
      await keys.locator('kbd', { hasText: new RegExp(`^${key.replace(/[?/+]/g, '\\$&')}$`) }).waitFor();
    }
    // Closing the list leaves the lightbox on the same photo, its keys working again.
    await keys.getByRole('button').first().click();
    await keys.waitFor({ state: 'detached' });
    await album.showing(id).waitFor();
    await page.keyboard.press('ArrowRight');
    await box.locator(`[data-strip-id="${id}"]:not([data-active])`).waitFor();
    await page.keyboard.press('ArrowLeft');
    await album.showing(id).waitFor();

    // Every time in the event's zone with am/pm and its label (April: daylight time in Winnipeg).
    const stamp = /^\d\d\/\d\d\/\d{4} (0\d|1[0-2]):\d\d:\d\d (am|pm) C[SD]T$/;
    expect(await box.getByTestId('lightbox-time').textContent()).toMatch(stamp);
    expect(await box.getByTestId('info-taken').textContent()).toMatch(stamp);
    expect(await box.getByTestId('info-taken').textContent()).toBe(
      await box.getByTestId('lightbox-time').textContent(),
    );
    const strip = box.locator(`[data-strip-id="${id}"]`);
    expect(await strip.textContent()).toMatch(/^(0\d|1[0-2]):\d\d (am|pm) C[SD]T$/);
    expect(await strip.getAttribute('aria-label')).toMatch(/^Photo (0\d|1[0-2]):\d\d (am|pm) C[SD]T$/);
    // The strip's label fits its thumbnail.
    expect(await strip.locator('p').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await page.mouse.move(1, 1);
    await box.getByTestId('lightbox-info').screenshot({ path: 'e2e/artifacts/lightbox-info-card.png' });
    await stack.screenshot(page, 'lightbox-times-1280');
    await context.close();
  }, 120_000);
});

describe('the operator’s night: forms with edits', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('the Colours page asks before a side-menu click loses a changed colour: Stay keeps it, Leave goes, none after Update Event', async () => {
    const { page, context } = await stack.newPage({ login: ADMIN, path: '/template/colors' });
    const bg = page.getByLabel('Background color', { exact: true });
    await bg.waitFor();
    const graphics = page.getByRole('link', { name: 'Graphics', exact: true });
    const prompt = page.getByRole('dialog', { name: 'Unsaved changes' });

    await bg.fill('#0a0b0c');
    await bg.blur();
    await graphics.click();
    await prompt.getByText('You have changes that are not saved. Leave this page and lose them?').waitFor();
    await prompt.getByRole('button', { name: 'Stay' }).click();
    await prompt.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe('/template/colors');
    expect(await bg.inputValue()).toBe('#0a0b0c');

    await graphics.click();
    await prompt.getByRole('button', { name: 'Leave' }).click();
    await page.waitForURL((u) => u.pathname === '/template/graphics');

    // Saved edits leave without asking.
    await page.getByRole('link', { name: 'Colors', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/template/colors');
    await bg.waitFor();
    await bg.fill('#0d0e0f');
    await bg.blur();
    await page.getByTestId('update-event').click();
    const ok = page.getByRole('dialog').filter({ hasText: 'Event successfully updated' });
    await ok.waitFor();
    await ok.waitFor({ state: 'hidden' });
    await graphics.click();
    await page.waitForURL((u) => u.pathname === '/template/graphics');
    expect(await prompt.count()).toBe(0);
    await context.close();
  }, 120_000);
});
