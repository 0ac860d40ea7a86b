import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_REQUEST_MAILTO, MSG, P, type UploadFace } from '@stadiumcam/contract';
import { events } from '../apps/server/src/db/schema/index.ts';
import { ADMIN_PASSWORD, startStack, type Stack } from './fixtures/stack.ts';
import { eventSelector } from './fixtures/event-selector.ts';
import { axeViolations } from './fixtures/axe.ts';
import { makeEvent, makePhoto } from '../apps/server/src/test/factories.ts';

const admin = { username: 'admin', password: ADMIN_PASSWORD };
const TZ = 'America/Winnipeg';
/** A finished event with a hand-made set of photos: 12 photos of 6 fans in two sections. */
const DONE = { slugDate: 'stadiumcam-2025-05-10', title: 'Finished Game', gameDate: '2025-05-10' };
const PHOTOS = 12;
/** Conditions on a loaded two-core machine: wait long, never fixed sleeps. */
const WAIT = { timeout: 30_000 };
/** A finished event without a single photo: every panel's fallback. */
const EMPTY = { slugDate: 'stadiumcam-2025-05-11', title: 'Empty Game', gameDate: '2025-05-11' };

const face = (emotion: string): UploadFace => {
  const no = { Value: false, Confidence: 99 };
  return {
    BoundingBox: { Top: 0.2, Left: 0.3, Height: 0.4, Width: 0.2 },
    AgeRange: { Low: 25, High: 35 },
    Smile: { Value: emotion === 'HAPPY', Confidence: 97 },
    Gender: { Value: 'Male', Confidence: 99 },
    Eyeglasses: no,
    Sunglasses: no,
    Beard: no,
    Mustache: no,
    EyesOpen: { Value: true, Confidence: 95 },
    MouthOpen: no,
    Emotions: [{ Type: emotion, Confidence: 90 }],
  };
};

async function insertEndedEvent(stack: Stack, e: typeof DONE): Promise<Date> {
  const start = new Date(`${e.gameDate}T23:00:00Z`);
  await makeEvent(stack.app.deps.db, e.slugDate, {
    id: randomUUID(),
    slug: 'stadiumcam',
    slugDate: e.slugDate,
    template: false,
    title: e.title,
    eventStatus: 'post',
    gameDate: e.gameDate,
    startTime: start,
    endTime: new Date(start.getTime() + 4 * 3600_000),
    timezone: TZ,
    config: {},
  });
  return start;
}

async function seedFinishedEvent(stack: Stack): Promise<string[]> {
  const start = await insertEndedEvent(stack, DONE);
  const ids: string[] = [];
  for (let i = 0; i < PHOTOS; i++) {
    const id = randomUUID();
    const date = new Date(start.getTime() + i * 10 * 60_000);
    const uri = `/media/${DONE.slugDate}/${id}/raw.jpg`;
    await makePhoto(stack.app.deps.db, {
      id,
      slug: 'stadiumcam',
      slugDate: DONE.slugDate,
      userId: `fan-${i % 6}`,
      camera: 'cam1',
      section: i < 8 ? '101' : '102',
      row: String(1 + (i % 4)),
      seat: String(1 + i),
      date,
      thumbUri: uri,
      smallUri: uri,
      rawCroppedUri: uri,
      sharedUri: uri,
      favorite: false,
      magicshot: false,
      postObj: [],
      sharedCount: 0,
      shareSources: [],
      faces: i % 2 === 0 ? [face(i % 4 === 0 ? 'HAPPY' : 'CALM')] : null,
      // An overlay the event no longer has: 'Overlay is not available'.
      overlay: i === 0 ? 'ov-gone' : null,
      // One e-mail share: the share platform filter has an option.
      ...(i === 1
        ? {
            postObj: [{ socialSource: 'Email', imgURL: uri, date: date.toISOString(), userEmail: 'fan1@example.com' }],
            sharedCount: 1,
            shareSources: ['Email'],
          }
        : {}),
    });
    ids.push(id);
  }
  return ids;
}

/** Chooses one event in a page's single-event selector, as an operator does. */
async function chooseEvent(page: Page, slugDate: string) {
  const selector = eventSelector(page);
  await selector.open();
  await selector.row(slugDate).click();
  await selector.apply();
}

const figure = async (page: Page, label: string) =>
  Number((await page.getByTestId(`figure-${label}`).locator('p').nth(1).textContent())?.replace(/[^\d.]/g, '') || NaN);

/** A call from inside the logged-in page: same origin, the session cookie. */
async function apiAs(page: Page, method: string, url: string, body: unknown): Promise<number> {
  return page.evaluate(
    async ([m, u, b]) => {
      const res = await fetch(u, {
        method: m,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(b),
      });
      return res.status;
    },
    [method, url, body] as const,
  );
}

describe('analytics and event users', () => {
  let stack: Stack;
  let seeded: string[];
  let liveId: string;
  let liveSlug: string;

  beforeAll(async () => {
    stack = await startStack({ simulator: { camerasPerHost: 2, attendeeRate: 1, turnMs: 2000 } });
    seeded = await seedFinishedEvent(stack);
    await insertEndedEvent(stack, EMPTY);
    const [live] = await stack.app.deps.db
      .select({ id: events.id, slugDate: events.slugDate })
      .from(events)
      .where(eq(events.eventStatus, 'live'));
    liveId = live.id;
    liveSlug = live.slugDate;
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('shows the live simulated event: redirect to its id, figures growing by socket, no Export Data', async () => {
    const began = Date.now();
    const { page, context } = await stack.newPage({ login: admin, path: '/analytics' });
    let basicCalls = 0;
    page.on('request', (req) => {
      if (new URL(req.url()).pathname === `/api/analytics/${liveSlug}/basic`) basicCalls++;
    });
    await page.waitForURL(`${stack.url}/analytics/${liveId}`);
    await page.getByTestId('figure-Snapshots').waitFor();
    const first = await figure(page, 'Snapshots');
    // New photos from the simulator reach the page without a reload (at most every 10 s).
    await page.evaluate('window.stillHere = true');
    await expect.poll(() => figure(page, 'Snapshots'), { timeout: 45_000, interval: 1000 }).toBeGreaterThan(first);
    expect(await page.evaluate('window.stillHere')).toBe(true);
    // Socket-driven, never faster than every 10 s: the first load, then at most one refetch per
    // started 10 s (the simulator takes a photo every few seconds).
    const elapsed = Date.now() - began;
    expect(basicCalls).toBeGreaterThanOrEqual(2);
    expect(basicCalls).toBeLessThanOrEqual(2 + Math.floor(elapsed / 10_000));
    expect(await page.getByRole('link', { name: MSG.analytics.exportData }).count()).toBe(0);
    await context.close();
  });

  it('reads a finished event: its figures, an emotion line toggled from the legend, the CSV link and the print layout', async () => {
    const { page, context } = await stack.newPage({ login: admin, path: '/analytics' });
    await page.waitForURL(`${stack.url}/analytics/${liveId}`);
    await chooseEvent(page, DONE.slugDate);
    await page.waitForURL(/\/analytics\/[^/]+$/);
    expect(page.url()).not.toContain(liveId);
    await expect.poll(() => figure(page, 'Snapshots'), WAIT).toBe(PHOTOS);
    expect(await figure(page, 'Users')).toBe(6);
    // Six photos carry one face each: a group size of 1, times 6 devices.
    await page.getByTestId('panel-engaged').getByText('From 6 photos with face data.').waitFor();
    await page.getByTestId('panel-overlays').getByText(MSG.analytics.overlayNotAvailable).waitFor();

    const legend = page.getByRole('group', { name: 'Emotions legend' });
    const happy = legend.getByRole('button', { name: 'happy' });
    expect(await happy.getAttribute('aria-pressed')).toBe('true');
    await happy.click();
    expect(await happy.getAttribute('aria-pressed')).toBe('false');
    await happy.click();
    expect(await happy.getAttribute('aria-pressed')).toBe('true');

    const exportLink = page.getByRole('link', { name: MSG.analytics.exportData });
    expect(await exportLink.getAttribute('href')).toBe(`/api/analytics/${DONE.slugDate}/export`);
    const csv = await page.evaluate(async (u) => (await fetch(u!)).text(), await exportLink.getAttribute('href'));
    expect(csv.split('\n')[0]).toMatch(/^"/);

    await stack.screenshot(page, 'analytics-1280');
    // Print (Ctrl/Cmd+P): the legend and buttons go, each chart's table comes.
    await page.emulateMedia({ media: 'print' });
    expect(await legend.isVisible()).toBe(false);
    expect(await exportLink.isVisible()).toBe(false);
    expect(await page.getByRole('columnheader', { name: 'Snapshots' }).first().isVisible()).toBe(true);
    await stack.screenshot(page, 'analytics-print');
    // What the print dialog prints: A4 pages (595 × 842 pt) from the page's @page rule.
    const pdf = Buffer.from(await page.pdf({ preferCSSPageSize: true, printBackground: true })).toString('latin1');
    expect(pdf).toMatch(/\/MediaBox \[0 0 59[45](\.\d+)? 84[12](\.\d+)?\]/);
    await context.close();
  });

  it('replaces vision with the upgrade notice and hides web analytics without their permissions', async () => {
    const op = await stack.newPage({ login: admin, path: '/analytics' });
    expect(await apiAs(op.page, 'POST', '/api/roles/analyst', { permissions: [P.ANALYTICS_READ], isNew: true })).toBe(
      200,
    );
    expect(
      await apiAs(op.page, 'POST', '/api/users', {
        username: 'analyst',
        email: 'analyst@example.com',
        password: 'analyst-password-1',
        roles: ['analyst'],
      }),
    ).toBe(200);
    await op.context.close();

    const { page, context } = await stack.newPage({
      login: { username: 'analyst', password: 'analyst-password-1' },
      path: '/analytics',
    });
    await chooseEvent(page, DONE.slugDate);
    await expect.poll(() => figure(page, 'Snapshots'), WAIT).toBe(PHOTOS);
    const notice = page.getByTestId('vision-upgrade');
    await notice.getByText(MSG.analytics.visionUpgrade).waitFor();
    expect(await notice.getByRole('link', { name: MSG.analytics.requestDemo }).getAttribute('href')).toBe(
      DEMO_REQUEST_MAILTO,
    );
    expect(await page.getByRole('heading', { name: 'Web analytics' }).count()).toBe(0);
    expect(await page.getByRole('group', { name: 'Emotions legend' }).count()).toBe(0);
    await context.close();
  });

  it('Event Users: filter by section, ban and unban one photo, a mixed selection, delete after confirmation', async () => {
    const { page, context } = await stack.newPage({ login: admin, path: '/eventUsers' });
    await chooseEvent(page, DONE.slugDate);
    const rows = page.getByTestId('event-user-row');
    await expect.poll(() => rows.count(), WAIT).toBe(PHOTOS);

    // Section 102 holds photos 8..11.
    await page.getByRole('combobox', { name: 'Section' }).click();
    await page.getByRole('option', { name: '102' }).click();
    await page.keyboard.press('Escape');
    await expect.poll(() => rows.count(), WAIT).toBe(4);
    for (const r of await rows.all()) expect(await r.locator('td').nth(3).textContent()).toBe('102');
    // Export: the filtered rows as CSV (spec 3 §6).
    const downloading = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Export' }).click();
    const csv = await readFile(await (await downloading).path(), 'utf8');
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toMatch(/^"_id","userId","section"/);
    expect(lines.slice(1).map((l) => l.split(',')[2])).toEqual(['"102"', '"102"', '"102"', '"102"']);

    const ban = page.getByRole('button', { name: /^(Ban|Unban)$/ });
    const target = seeded[8];
    await page.getByRole('checkbox', { name: `Select ${target}` }).check();
    expect(await ban.textContent()).toBe('Ban');
    await ban.click();
    const confirmBan = page.getByRole('dialog', { name: 'Ban Photo' });
    await confirmBan.getByText(MSG.album.banPhotoWarning).waitFor();
    await confirmBan.getByRole('button', { name: 'Confirm' }).click();
    const row = rows.filter({ hasText: target });
    await row.getByText('Banned').waitFor();
    await expect.poll(() => ban.textContent(), WAIT).toBe('Unban');

    // One banned and one not: the button cannot decide, so it is disabled.
    await page.getByRole('checkbox', { name: `Select ${seeded[9]}` }).check();
    expect(await ban.isDisabled()).toBe(true);
    await page.getByRole('checkbox', { name: `Select ${seeded[9]}` }).uncheck();
    await ban.click();
    await row.getByText('Banned').waitFor({ state: 'detached' });
    await expect.poll(() => ban.textContent(), WAIT).toBe('Ban');

    await page.getByRole('checkbox', { name: `Select ${target}` }).check();
    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: MSG.album.deletePhotoConfirm });
    await dialog.getByText(MSG.album.deleteIrreversible).waitFor();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.getByText(MSG.album.snapshotDeleted).waitFor();
    await expect.poll(() => rows.count(), WAIT).toBe(3);
    await stack.screenshot(page, 'event-users-1280');
    await context.close();
  });
  it('an event without photos: every panel falls back, no NaN; Event Users says there are no users', async () => {
    const { page, context } = await stack.newPage({ login: admin, path: '/analytics' });
    await page.waitForURL(`${stack.url}/analytics/${liveId}`);
    await chooseEvent(page, EMPTY.slugDate);
    await expect.poll(() => figure(page, 'Snapshots'), WAIT).toBe(0);
    expect(await figure(page, 'Users')).toBe(0);
    expect(await figure(page, 'Share rate')).toBe(0);
    await page.getByTestId('panel-timeline').getByText(MSG.analytics.noData).waitFor();
    // Web analytics: no page views yet, every panel says so; vision: the event may just have started.
    await expect.poll(() => page.getByText(MSG.analytics.webNotAvailable).count(), WAIT).toBe(9);
    await page.getByText(MSG.analytics.visionNotAvailable).waitFor();
    expect(await page.getByRole('group', { name: 'Emotions legend' }).count()).toBe(0);
    // The past event (the finished game, 6 users) is -100% on every count: numbers, never NaN.
    expect(await page.getByTestId('figure-Users').getByText('▼ -100%').count()).toBe(1);
    expect(await page.locator('body').innerText()).not.toMatch(/NaN|Infinity|undefined/);
    await stack.screenshot(page, 'analytics-empty');

    await page.getByRole('link', { name: 'Event Users' }).click();
    await page.getByText(MSG.eventUsers.noUsers).waitFor();
    expect(await page.getByTestId('event-user-row').count()).toBe(0);
    await context.close();
  });

  it('Event Users: sort by a column, dropdowns of the minimum height, the failure texts', async () => {
    const { page, context } = await stack.newPage({ login: admin, path: '/eventUsers' });
    await chooseEvent(page, DONE.slugDate);
    const rows = page.getByTestId('event-user-row');
    await expect.poll(() => rows.count(), WAIT).toBeGreaterThan(5);
    const seats = async () => Promise.all((await rows.all()).map(async (r) => r.locator('td').nth(5).textContent()));
    // Newest first by default; a click on seat sorts by seat, descending, then ascending.
    const before = await seats();
    await page.getByRole('button', { name: 'Sort by seat' }).click();
    const desc = [...before].sort((a, b) => (a! < b! ? 1 : a! > b! ? -1 : 0));
    await expect.poll(seats, WAIT).toEqual(desc);
    await page.getByRole('button', { name: 'Sort by seat' }).click();
    await expect.poll(seats, WAIT).toEqual([...desc].reverse());

    // Filter dropdowns keep their minimum height (spec 3 §2.3): 350 px for sections, 200 for the rest.
    const dropdownHeight = () =>
      page.evaluate<number>(`(() => {
        const list = [...document.querySelectorAll('[role="listbox"]')].find((e) => e.offsetParent !== null);
        const drop = list && list.closest('[class*="dropdown"]');
        return drop ? drop.getBoundingClientRect().height : 0;
      })()`);
    for (const [name, min] of [
      ['Section', 350],
      ['Row', 200],
      ['Seat', 200],
      ['Banned', 200],
      ['Share platform', 200],
    ] as const) {
      // A click where the operator clicks (the field's box may lie over a non-searchable input).
      await page.getByRole('combobox', { name, exact: true }).click({ force: true });
      await expect.poll(dropdownHeight, WAIT).toBeGreaterThanOrEqual(min);
      // Three choices fill less than that: the height is the minimum, measured on the dropdown.
      if (name === 'Banned') expect(await dropdownHeight()).toBeLessThan(min + 20);
      await page.keyboard.press('Escape');
      await expect.poll(dropdownHeight, WAIT).toBe(0);
    }

    await context.close();

    // The server failing (a 500 the real server cannot be made to give): the spec's texts.
    const failing = await stack.newPage({ login: admin });
    await failing.page.route(
      (url) => url.pathname === '/api/snapshots' || url.pathname === '/api/snapshots/sharedPlatforms',
      (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"down"}' }),
    );
    await failing.page.goto(`${stack.url}/eventUsers`);
    await failing.page.getByText(MSG.eventUsers.fetchFailed).waitFor({ timeout: 30_000 });
    await failing.page.getByText(MSG.eventUsers.sharePlatformsFailed).waitFor({ timeout: 30_000 });
    await failing.context.close();
  });

  it('Event Users follows the live event: new photos reach the table without a reload', async () => {
    const { page, context } = await stack.newPage({ login: admin, path: '/eventUsers' });
    const rows = page.getByTestId('event-user-row');
    await rows.first().waitFor();
    // The table's size: the total under a full page, else its rows.
    const size = async () => {
      const total = page.getByText(/^[\d,]+ photos$/);
      if (await total.count()) return Number((await total.textContent())!.replace(/\D/g, ''));
      return rows.count();
    };
    const first = await size();
    await page.evaluate('window.stillHere = true');
    await expect.poll(size, { timeout: 45_000, interval: 1000 }).toBeGreaterThan(first);
    expect(await page.evaluate('window.stillHere')).toBe(true);
    await context.close();
  });

  it('Event Users: a page emptied by a delete goes back to the last page with rows', async () => {
    // 51 photos: page 2 holds one.
    const BUSY = { slugDate: 'stadiumcam-2025-05-09', title: 'Busy Game', gameDate: '2025-05-09' };
    const start = await insertEndedEvent(stack, BUSY);
    for (let i = 0; i < 51; i++) {
      const id = randomUUID();
      const uri = `/media/${BUSY.slugDate}/${id}/raw.jpg`;
      await makePhoto(stack.app.deps.db, {
        id,
        slug: 'stadiumcam',
        slugDate: BUSY.slugDate,
        userId: `busy-${i}`,
        camera: 'cam1',
        section: '101',
        row: '1',
        seat: String(i + 1),
        date: new Date(start.getTime() + i * 60_000),
        thumbUri: uri,
        smallUri: uri,
        rawCroppedUri: uri,
        sharedUri: uri,
      });
    }
    const { page, context } = await stack.newPage({ login: admin, path: '/eventUsers' });
    await chooseEvent(page, BUSY.slugDate);
    const rows = page.getByTestId('event-user-row');
    await expect.poll(() => rows.count(), WAIT).toBe(50);
    await page.getByText('51 photos').waitFor();
    await page.locator('.mantine-Pagination-root').getByRole('button', { name: '2', exact: true }).click();
    await expect.poll(() => rows.count(), WAIT).toBe(1);
    await page.getByRole('checkbox', { name: 'Select all' }).check();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('dialog', { name: MSG.album.deletePhotoConfirm })
      .getByRole('button', { name: 'Delete' })
      .click();
    await page.getByText(MSG.album.snapshotDeleted).waitFor();
    await expect.poll(() => rows.count(), WAIT).toBe(50);
    expect(await page.getByText(MSG.eventUsers.noUsers).count()).toBe(0);
    await context.close();
  });

  it('Event Users without EventUsers:write: no Ban/Unban or Delete, and the server refuses both with 403', async () => {
    const op = await stack.newPage({ login: admin, path: '/eventUsers' });
    expect(
      await apiAs(op.page, 'POST', '/api/roles/eu-readers', { permissions: [P.EVENT_USERS_READ], isNew: true }),
    ).toBe(200);
    expect(
      await apiAs(op.page, 'POST', '/api/users', {
        username: 'eureader',
        email: 'eureader@example.com',
        password: 'eureader-password-1',
        roles: ['eu-readers'],
      }),
    ).toBe(200);
    await op.context.close();

    const { page, context } = await stack.newPage({
      login: { username: 'eureader', password: 'eureader-password-1' },
      path: '/eventUsers',
    });
    await page.getByRole('heading', { name: MSG.eventUsers.title }).waitFor();
    await chooseEvent(page, DONE.slugDate);
    const rows = page.getByTestId('event-user-row');
    await expect.poll(() => rows.count(), WAIT).toBeGreaterThan(0);
    // EventUsers:read views and exports; without :write there is nothing to ban or delete with.
    await page.getByRole('link', { name: 'Export' }).waitFor();
    await page.getByRole('checkbox', { name: `Select ${seeded[2]}` }).check();
    expect(await page.getByRole('button', { name: /^(Ban|Unban)$/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete' }).count()).toBe(0);

    // The server says the same: PUT and POST snapshots/ban and the delete are refused.
    expect(await apiAs(page, 'PUT', '/api/snapshots/ban', { userId: 'fan-2', banStatus: true })).toBe(403);
    expect(await apiAs(page, 'POST', '/api/snapshots/ban', { ids: [seeded[2]], banStatus: true })).toBe(403);
    expect(await apiAs(page, 'POST', '/api/snapshots/delete', { ids: [seeded[2]] })).toBe(403);
    // Nothing changed: the photo is still there and not banned.
    const photo = await page.evaluate(async (id) => {
      const res = await fetch(`/api/snapshots/${id}`);
      return { status: res.status, hidden: ((await res.json()) as { hidden?: boolean }).hidden };
    }, seeded[2]);
    expect(photo).toEqual({ status: 200, hidden: false });
    await context.close();
  });

  it('loads basic, then web, then vision, the past event in parallel; errors follow spec 3 §8', async () => {
    const modals = (page: Page) => page.getByTestId('error-modal');
    // Errors the page logged with this text (spec 3 §8: logged, then the modal; the modals
    // queue one at a time, so the log is what counts them).
    const logged = (page: Page, text: string) => {
      const lines: string[] = [];
      page.on('console', (msg) => {
        if (msg.type() === 'error' && msg.text().includes(text)) lines.push(msg.text());
      });
      return lines;
    };
    // Which analytics calls a page made for an event, in order.
    const calls = (page: Page, slugDate: string) => {
      const seen: string[] = [];
      page.on('request', (req) => {
        const m = /^\/api\/analytics\/([^/]+)\/(\w+)$/.exec(new URL(req.url()).pathname);
        if (m && m[1] === slugDate) seen.push(m[2]);
      });
      return seen;
    };

    // The chain: basic held at the server's door; the past event is asked for meanwhile, web and
    // vision only once basic has answered, in that order.
    {
      const { page, context } = await stack.newPage({ login: admin, path: '/analytics' });
      await page.waitForURL(`${stack.url}/analytics/${liveId}`);
      const seen = calls(page, DONE.slugDate);
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      await page.route(`**/api/analytics/${DONE.slugDate}/basic`, async (route) => {
        await held;
        await route.continue();
      });
      await chooseEvent(page, DONE.slugDate);
      await expect.poll(() => seen.includes('pastEventData') && seen.includes('basic'), WAIT).toBe(true);
      await page.getByLabel('Loading Basic figures').waitFor();
      // A spinner with a name is a status (axe: a bare span may not carry aria-label).
      expect((await axeViolations(page, { rules: ['aria-prohibited-attr'] })).map((v) => v.nodes[0]?.html)).toEqual([]);
      expect(seen.filter((c) => c === 'google' || c === 'awsVision')).toEqual([]);
      release();
      await expect.poll(() => seen.includes('awsVision'), WAIT).toBe(true);
      expect(seen.filter((c) => c !== 'pastEventData' && c !== 'heatmap')).toEqual(['basic', 'google', 'awsVision']);
      await page.getByRole('group', { name: 'Emotions legend' }).waitFor();
      expect(await modals(page).count()).toBe(0);
      await context.close();
    }

    // A 404 on an ended event (the server does not know it: asked under an unknown name) is
    // silent; each bucket shows its text; the past event's failure always opens the modal.
    const unknown = (route: import('playwright-core').Route) =>
      route.continue({
        url: route
          .request()
          .url()
          .replace(/\/api\/analytics\/[^/]+\//, '/api/analytics/gone-2000-01-01/'),
      });
    {
      const { page, context } = await stack.newPage({ login: admin, path: '/analytics' });
      await page.waitForURL(`${stack.url}/analytics/${liveId}`);
      const errors = logged(page, MSG.events.eventNotFound);
      await page.route(`**/api/analytics/${EMPTY.slugDate}/*`, unknown);
      await chooseEvent(page, EMPTY.slugDate);
      await page.getByText(MSG.analytics.basicFailed).waitFor();
      await page.getByText(MSG.analytics.webFailed).waitFor();
      await page.getByText(MSG.analytics.visionFailed).waitFor();
      await modals(page).getByText(MSG.common.genericError).waitFor();
      expect(errors).toHaveLength(1); // the past event's; basic, web and vision are silent
      await stack.screenshot(page, 'analytics-errors');
      await context.close();
    }

    // A 404 while the event is live is an error like any other: logged, and the modal for each.
    {
      const { page, context } = await stack.newPage({ login: admin });
      const errors = logged(page, MSG.events.eventNotFound);
      await page.route(`**/api/analytics/${liveSlug}/*`, unknown);
      await page.goto(`${stack.url}/analytics`);
      await page.waitForURL(`${stack.url}/analytics/${liveId}`);
      await page.getByText(MSG.analytics.visionFailed).waitFor();
      await modals(page).getByText(MSG.common.genericError).waitFor();
      await expect.poll(() => errors.length, WAIT).toBeGreaterThanOrEqual(4); // basic, web, vision, past
      await context.close();
    }

    // Any other error on an ended event: the modal, and the next buckets still load.
    {
      const { page, context } = await stack.newPage({ login: admin, path: '/analytics' });
      await page.waitForURL(`${stack.url}/analytics/${liveId}`);
      const errors = logged(page, 'down');
      await page.route(`**/api/analytics/${DONE.slugDate}/basic`, (route) =>
        route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"down"}' }),
      );
      await chooseEvent(page, DONE.slugDate);
      await page.getByText(MSG.analytics.basicFailed).waitFor({ timeout: 30_000 });
      await modals(page).getByText(MSG.common.genericError).waitFor();
      await page.getByRole('group', { name: 'Emotions legend' }).waitFor();
      expect(errors).toHaveLength(1);
      await context.close();
    }
  });
});
