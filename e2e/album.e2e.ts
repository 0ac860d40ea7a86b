import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG, toQueryString, type UploadFace } from '@stadiumcam/contract';
import { events } from '../apps/server/src/db/schema/index.ts';
import { PhotoPool } from '../apps/venue-sim/src/photos.ts';
import { createRng } from '../apps/venue-sim/src/rng.ts';
import { ADMIN_PASSWORD, startStack, type Stack } from './fixtures/stack.ts';
import { albumPage, openAlbum } from './fixtures/album.ts';
import { uploadPhoto } from './fixtures/host.ts';
import { makeEvent, makePhoto } from '../apps/server/src/test/factories.ts';

const run = promisify(execFile);
const admin = { username: 'admin', password: ADMIN_PASSWORD };

/**
 * Finished events with known photos: the album's deterministic fixtures. No event is today's,
 * so the simulator's attendees photograph the master template and leave these alone.
 */
const PAST = { slugDate: 'stadiumcam-2025-03-14', title: 'Seeded Game', gameDate: '2025-03-14' };
const EARLIER = { slugDate: 'stadiumcam-2025-03-13', title: 'Earlier Game', gameDate: '2025-03-13' };
const PAST_PHOTOS = 130;
const PAST_MAGIC_FROM = 125; // photos 125..129 are magicshots: "all" counts 125 = 2 pages
const TZ = 'America/Winnipeg';

const face = (emotion: string, left: number): UploadFace => {
  const no = { Value: false, Confidence: 99 };
  return {
    BoundingBox: { Top: 0.25, Left: left, Height: 0.4, Width: 0.22 },
    AgeRange: { Low: 25, High: 35 },
    Smile: { Value: emotion === 'HAPPY', Confidence: 97 },
    Gender: { Value: 'Female', Confidence: 99 },
    Eyeglasses: { Value: true, Confidence: 91 },
    // Below the threshold of 60: never shown.
    Sunglasses: { Value: true, Confidence: 40 },
    Beard: no,
    Mustache: no,
    EyesOpen: { Value: true, Confidence: 95 },
    MouthOpen: no,
    Emotions: [
      { Type: emotion, Confidence: 93 },
      { Type: 'CONFUSED', Confidence: 12 },
    ],
  };
};

const COLORS = ['#1d4e89', '#00b2ca', '#7dcfb6', '#f79256', '#fbd1a2', '#a23b72'];

async function renderPhoto(i: number): Promise<{ raw: Buffer; thumb: Buffer }> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600">
    <rect width="800" height="600" fill="${COLORS[i % COLORS.length]}"/>
    <circle cx="400" cy="330" r="150" fill="rgba(255,255,255,.25)"/>
    <text x="40" y="90" font-size="64" font-family="sans-serif" fill="white">Photo ${i}</text></svg>`;
  const raw = await sharp(Buffer.from(svg))
    .jpeg({ quality: 80 })
    .withExif({ IFD0: { Make: 'StadiumCam', Model: 'SimCam PTZ-1', Software: 'e2e seed' } })
    .toBuffer();
  const thumb = await sharp(raw).resize(320, 240).jpeg({ quality: 70 }).toBuffer();
  return { raw, thumb };
}

async function seedEvent(
  stack: Stack,
  ev: { slugDate: string; title: string; gameDate: string; status: 'pre' | 'post' },
): Promise<void> {
  const noon = new Date(`${ev.gameDate}T18:00:00Z`);
  await makeEvent(stack.app.deps.db, ev.slugDate, {
    id: randomUUID(),
    slug: 'stadiumcam',
    slugDate: ev.slugDate,
    template: false,
    title: ev.title,
    eventStatus: ev.status,
    gameDate: ev.gameDate,
    startTime: noon,
    endTime: new Date(noon.getTime() + 5 * 3600_000),
    timezone: TZ,
    config: {},
  });
}

type Seeded = { id: string; n: number; userId: string; section: string; faces: number };

async function seedPhotos(
  stack: Stack,
  slugDate: string,
  count: number,
  dateOf: (i: number) => Date,
  opts: { rich?: boolean; users?: string } = {},
): Promise<Seeded[]> {
  const renders = await Promise.all(COLORS.map((_, i) => renderPhoto(i)));
  const out: Seeded[] = [];
  for (let i = 0; i < count; i++) {
    const id = randomUUID();
    const { raw, thumb } = renders[i % renders.length];
    const dir = `${slugDate}/${id}`;
    const rawUri = await stack.app.deps.media.put(`${dir}/raw.jpg`, raw);
    const smallUri = await stack.app.deps.media.put(`${dir}/small.jpg`, raw);
    const thumbUri = await stack.app.deps.media.put(`${dir}/thumb.jpg`, thumb);
    const rich = opts.rich ?? false;
    const magic = rich && i >= PAST_MAGIC_FROM;
    const section = String(101 + (i % 3));
    const userId = magic ? `MAGIC-${i}` : `${opts.users ?? 'u'}-${i % 40}`;
    const shared = rich && i % 7 === 0;
    const faces =
      rich && i % 4 === 0
        ? [face('HAPPY', 0.2), face('CALM', 0.6)]
        : rich && i % 4 === 1
          ? [face('SAD', 0.4)]
          : undefined;
    const date = dateOf(i);
    await makePhoto(stack.app.deps.db, {
      id,
      slug: 'stadiumcam',
      slugDate,
      userId,
      camera: i % 2 ? 'cam2' : 'cam1',
      section,
      row: String(1 + (i % 10)),
      seat: String(1 + (i % 20)),
      date,
      thumbUri,
      smallUri,
      rawCroppedUri: rawUri,
      sharedUri: rawUri,
      favorite: rich && i % 10 === 0,
      magicshot: magic,
      postObj: shared
        ? [{ socialSource: 'Email', imgURL: rawUri, date: date.toISOString(), userEmail: `fan${i}@example.com` }]
        : [],
      sharedCount: shared ? 1 : 0,
      shareSources: shared ? ['Email'] : [],
      faces: faces ?? null,
    });
    out.push({ id, n: i, userId, section, faces: faces?.length ?? 0 });
  }
  return out;
}

/**
 * What the lightbox bar says for a photo of the seeded game: its place among the event's photos
 * an admin's strip runs through (MagicShots too), newest first, and their number, asked of the
 * API now (earlier tests of this file add, ban and delete photos).
 */
async function placeOf(page: Page, id: string): Promise<string> {
  const get = async (path: string) => (await (await page.request.get(path)).json()) as Record<string, unknown>;
  const { date } = (await get(`/api/snapshots/${id}`)) as { date: string };
  const count = async (extra: Record<string, unknown>) =>
    (
      (await get(
        `/api/snapshots${toQueryString({ slugDate: [PAST.slugDate], type: 'all-with-magicshot', pageSize: 1, withTotal: true, ...extra })}`,
      )) as { total: number }
    ).total;
  const total = await count({});
  const newer = await count({ dateVal: date, dateComparator: 'gt' });
  return `${newer + 1} of ${total}`;
}

describe('album and lightbox', () => {
  let stack: Stack;
  let past: Seeded[];
  /** The album on these events (the seeded game unless told), as the admin. */
  const open = (slugDates = [PAST.slugDate], viewport?: { width: number; height: number }) =>
    openAlbum(stack, { login: admin, events: slugDates, viewport });

  beforeAll(async () => {
    stack = await startStack({ simulator: true });
    await seedEvent(stack, { ...PAST, status: 'post' });
    // Photo i is i minutes after 18:10 local; the last ten fall after local midnight (a new day).
    const start = Date.parse('2025-03-15T00:10:00Z');
    past = await seedPhotos(
      stack,
      PAST.slugDate,
      PAST_PHOTOS,
      (i) => new Date(start + i * 60_000 + (i >= 120 ? 6 * 3600_000 : 0)),
      { rich: true },
    );
    // Two pages of plain photos for the live test.
    await seedEvent(stack, { ...EARLIER, status: 'post' });
    const earlier = Date.parse('2025-03-14T01:00:00Z');
    await seedPhotos(stack, EARLIER.slugDate, 105, (i) => new Date(earlier - i * 60_000), { users: 'e' });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('shows tabs with counts, pages of 100 and resets to page 1 on a tab change', async () => {
    const { page, context, album } = await open();
    await album.waitForCount('all', PAST_PHOTOS - 5);
    expect(await album.countOf('shared')).toBe(Math.ceil(PAST_PHOTOS / 7) - 1); // 126 is a magicshot
    expect(await album.countOf('favorites')).toBe(13);
    expect(await album.countOf('magicshots')).toBe(5);
    expect(await album.tiles.count()).toBe(100);
    await stack.screenshot(page, 'album-1280');

    await album.pageButton(2).click();
    await album.waitForTiles(25);
    await album.tab(/Favorites/).click();
    await album.waitForTiles(13);
    // One page only: no pagination.
    expect(await page.locator('.mantine-Pagination-root').count()).toBe(0);
    await album.tab(/All Photos/).click();
    await album.waitForTiles(100);
    expect(await album.pageButton(1).getAttribute('data-active')).toBe('true');
    await context.close();
  });

  it('rolls back a favourite and a ban the server refuses, with the "Oops..." modal', async () => {
    const { page, context, album } = await open();
    await page.route('**/api/snapshots/favorite', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"boom"}' }),
    );
    await page.route('**/api/snapshots/ban', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"boom"}' }),
    );
    const first = album.tiles.first();
    const heart = first.getByRole('button', { name: 'Favourite', exact: true });
    await heart.click();
    const oops = page.getByRole('dialog', { name: 'Oops...' });
    await oops.getByText('Something went wrong, please try again.').waitFor();
    expect(await first.getAttribute('data-favorite')).toBeNull();
    await page.keyboard.press('Escape');
    await oops.waitFor({ state: 'detached' });

    await first.getByRole('button', { name: 'Ban menu' }).click();
    await page.getByRole('menuitem', { name: 'Ban Photo' }).click();
    await page.getByText('Banning a photo will change the URL of that photo and remove it from social media').waitFor();
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('dialog', { name: 'Oops...' }).waitFor();
    expect(await first.getAttribute('data-hidden')).toBeNull();
    await page.keyboard.press('Escape');

    await first.getByRole('button', { name: 'Ban menu' }).click();
    await page.getByRole('menuitem', { name: 'Ban User' }).click();
    await page.getByText('Banning a user will ban all their photos').waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await context.close();
  });

  it('a delete the server refuses shows the "Oops..." modal and the photos stay', async () => {
    const { page, context, album } = await open();
    const before = await album.countOf('all');
    let deletes = 0;
    await page.route('**/api/snapshots/delete', (route) => {
      deletes++;
      return route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"boom"}' });
    });
    const first = album.tiles.first();
    const id = (await first.getAttribute('data-id'))!;
    await first.getByRole('button', { name: 'Delete photo' }).click();
    const dialog = page.getByRole('dialog', { name: 'Are you sure you want to delete this photo?' });
    await dialog.getByRole('button', { name: 'Delete' }).click();
    const oops = page.getByRole('dialog', { name: 'Oops...' });
    await oops.getByText(MSG.common.genericError).waitFor();
    expect(deletes).toBe(1);
    expect(await page.getByText(MSG.album.snapshotDeleted).count()).toBe(0);
    expect(await album.tile(id).count()).toBe(1);
    expect(await album.countOf('all')).toBe(before);
    await context.close();
  });

  it('a copy the browser refuses shows the "Oops..." modal, not "Copied!"', async () => {
    const { page, context, album } = await open();
    await page.evaluate(() => {
      Object.defineProperty((globalThis as any).navigator, 'clipboard', {
        configurable: true,
        value: { writeText: () => Promise.reject(new Error('NotAllowedError')) },
      });
    });
    const box = await album.openLightbox();
    await box.getByRole('button', { name: 'Copy console link' }).click();
    await page.getByRole('dialog', { name: 'Oops...' }).getByText(MSG.common.genericError).waitFor();
    expect(await page.getByText(MSG.album.copied).count()).toBe(0);
    await context.close();
  });

  it('says which album call failed: media, tab counts, filter options', async () => {
    const { page, context } = await stack.newPage({ login: admin, path: '/album' });
    const album = albumPage(page);
    await album.root.waitFor();
    const fail = (route: Route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":"down"}' });
    await page.route('**/api/snapshots?**', fail);
    await page.route('**/api/events/snapshots/stats?**', fail);
    await page.route('**/api/events/snapshots/filterOptions?**', fail);
    await album.selectEvents([PAST.slugDate]);
    // Failed calls are retried twice before the texts show.
    const message = page.getByTestId('album-message');
    await message.getByText('Error fetching media.').waitFor({ timeout: 20_000 });
    await page.getByText('Error loading album data.').waitFor({ timeout: 20_000 });
    await album.filters.getByText('Error loading filter options').waitFor({ timeout: 20_000 });
    expect(await album.tiles.count()).toBe(0);
    await stack.screenshot(page, 'album-errors');
    // The calls work again: the album recovers on the next event choice.
    await page.unrouteAll();
    await album.selectEvents([EARLIER.slugDate]);
    await album.tiles.first().waitFor();
    expect(await page.getByText('Error loading album data.').count()).toBe(0);
    await context.close();
  });

  it('deletes a shift-selected range after the confirmation', async () => {
    const { page, context, album } = await open();
    const before = await album.countOf('all');
    const chosen = await Promise.all([0, 1, 2, 3].map(async (i) => album.tiles.nth(i).getAttribute('data-id')));
    await album.select(0);
    await page.keyboard.down('Shift');
    await album.select(3);
    await page.keyboard.up('Shift');
    expect(await page.getByTestId('selected-count').textContent()).toBe('4 selected');

    await album.toolbar.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Are you sure you want to delete these photos?' });
    await dialog.getByText('You will not be able to recover this snapshot!').waitFor();
    expect(await dialog.getByTestId('delete-preview').locator('img').count()).toBe(3);
    await stack.screenshot(page, 'album-delete-confirm');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Snapshot is deleted').waitFor();
    await album.waitForCount('all', before - 4);
    for (const id of chosen) expect(await album.tile(id!).count()).toBe(0);

    // One photo: the singular question.
    await album.tiles.first().getByRole('button', { name: 'Delete photo' }).click();
    await page.getByRole('dialog', { name: 'Are you sure you want to delete this photo?' }).waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    past = past.filter((p) => !chosen.includes(p.id));
    await context.close();
  });

  it('shares the selection by e-mail into the outbox', async () => {
    const { page, context, album } = await open();
    const id = await album.tiles.first().getAttribute('data-id');
    await album.select(0);
    await album.toolbar.getByRole('button', { name: 'E-mail' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share by e-mail' });
    await dialog.getByLabel('E-mail address').fill('not-an-address');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await dialog.getByText('Please enter a valid e-mail address.').waitFor();
    await dialog.getByText('Subject is required').waitFor();
    await dialog.getByText('Message is required').waitFor();
    const mailsBefore = (await stack.outbox()).length;
    await dialog.getByLabel('E-mail address').fill('fan@example.com');
    await dialog.getByLabel('Subject').fill('Your photo from the game');
    await dialog.getByLabel('Message').fill('Here it is!');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await page.getByText('Email is sent.').waitFor();
    const mails = await stack.outbox();
    expect(mails.length).toBe(mailsBefore + 1);
    const mail = mails.at(-1)!;
    expect(mail).toContain('fan@example.com');
    expect(mail).toContain('Your photo from the game');
    expect(mail).toContain(id!);
    await context.close();
  });

  it('an e-mail share the server fails says "Error sending email. Please try again." and keeps the form', async () => {
    const { page, context, album } = await open();
    await page.route('**/api/email/shareSnapshots', (route) =>
      route.fulfill({ status: 502, contentType: 'application/json', body: '{"error":"mail server down"}' }),
    );
    const mailsBefore = (await stack.outbox()).length;
    await album.select(0);
    await album.toolbar.getByRole('button', { name: 'E-mail' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share by e-mail' });
    await dialog.getByLabel('E-mail address').fill('fan@example.com');
    await dialog.getByLabel('Subject').fill('Your photo');
    await dialog.getByLabel('Message').fill('Here it is!');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await page.getByText(MSG.album.emailFailed, { exact: true }).waitFor();
    expect(await page.getByText(MSG.album.emailSent).count()).toBe(0);
    expect((await stack.outbox()).length).toBe(mailsBefore);
    await page.unroute('**/api/email/shareSnapshots');
    await context.close();
  }, 180_000);

  it('exports the selection as an archive that opens with the password shown', async () => {
    const { page, context, album } = await open();
    await album.select(0);
    await album.select(1);
    await album.exportButton.click();
    const downloading = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: 'Export selected (2)' }).click();
    const password = (await page.getByTestId('export-password').textContent())!;
    expect(password).toMatch(/^[A-Za-z0-9]{10}$/);
    const download = await downloading;
    await page.getByText('The archive is downloaded.').waitFor();
    await stack.screenshot(page, 'album-export');
    const dir = await mkdtemp(path.join(os.tmpdir(), 'album-export-'));
    const file = path.join(dir, 'export.zip');
    await download.saveAs(file);
    const ok = await run('/usr/bin/7z', ['t', `-p${password}`, file]);
    expect(ok.stdout).toContain('Everything is Ok');
    expect(ok.stdout).toMatch(/Files: 2/);
    await expect(run('/usr/bin/7z', ['t', '-pwrongpass00', file])).rejects.toThrow();

    // The plain archive of the same selection (Raw), with progress in a toast.
    await page.locator('.mantine-Modal-body').getByRole('button', { name: 'Close' }).click();
    const archiving = page.waitForEvent('download');
    await album.toolbar.getByRole('button', { name: 'Download' }).click();
    await page.getByRole('menuitem', { name: 'Raw' }).click();
    const archive = path.join(dir, 'raw.zip');
    await (await archiving).saveAs(archive);
    const plain = await run('/usr/bin/7z', ['t', archive]);
    expect(plain.stdout).toMatch(/Files: 2/);
    await rm(dir, { recursive: true, force: true });
    await context.close();
  });

  it('lightbox: keys, tabs, day labels, Exif and user cards, copy link, Escape', async () => {
    const { page, context, album } = await open();
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const firstId = (await album.tiles.first().getAttribute('data-id'))!;
    const box = await album.openLightbox();
    await album.showing(firstId).waitFor();
    // The newest photos were taken after local midnight on the 15th.
    expect(await page.getByTestId('lightbox-time').textContent()).toMatch(/^15\/03\/2025 \d\d:\d\d:\d\d (am|pm) CDT$/);
    expect(await page.getByTestId('lightbox-seat').textContent()).toMatch(/^Section 10\d, Row \d+, Seat \d+$/);

    // Its place among all the event's photos, not in the loaded part of the strip ('1 of 35+').
    const position = page.getByTestId('lightbox-position');
    await expect.poll(() => position.textContent()).toBe(await placeOf(page, firstId));
    await page.keyboard.press('ArrowRight');
    const secondId = (await album.tiles.nth(1).getAttribute('data-id'))!;
    await album.showing(secondId).waitFor();
    expect(await position.textContent()).toBe(await placeOf(page, secondId));
    await page.keyboard.press('ArrowLeft');
    await album.showing(firstId).waitFor();
    // Walk past the last of the 15th: a second day label appears in the strip. One key at a
    // time, each waiting for the strip to move, so no press is lost on a busy machine.
    for (let i = 0; i < 8; i++) await album.step('ArrowRight');
    await page.waitForFunction(
      () => (globalThis as any).document.querySelectorAll('[data-testid="strip-day"]').length >= 2,
    );

    // Exif of the raw photo, read from its first 100000 bytes.
    await box.getByRole('button', { name: 'Exif Data' }).click();
    await box.getByText('SimCam PTZ-1').waitFor();
    for (let i = 0; i < 8; i++) await album.step('ArrowLeft');
    await album.showing(firstId).waitFor();
    await box.getByRole('button', { name: 'User Information' }).click();
    await box.getByTestId('user-info').waitFor();
    await stack.screenshot(page, 'lightbox-1280');

    // Copy a link: "Copied!" for 1.5 s, timed in the page from the click to the text leaving
    // (it shows once the tooltip has opened).
    const copiedFor = page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          const doc = (globalThis as any).document;
          let clicked = 0;
          let shown = false;
          doc.addEventListener('click', () => (clicked ||= performance.now()), true);
          new (globalThis as any).MutationObserver((_: unknown, observer: { disconnect(): void }) => {
            if (doc.body.textContent.includes('Copied!')) shown = true;
            else if (shown) {
              observer.disconnect();
              resolve(performance.now() - clicked);
            }
          }).observe(doc.body, { subtree: true, childList: true, characterData: true });
        }),
    );
    await box.getByRole('button', { name: 'Copy console link' }).click();
    await page.getByText('Copied!').waitFor();
    expect(await copiedFor).toBeGreaterThanOrEqual(1.5 * 1000);

    // The bottom resizable carousel: initial 260 px, never below 150 px, a double-click gives the default 250.
    const edge = page.getByRole('separator', { name: 'Resize the photo strip' });
    const carouselAt = async (px: number) =>
      page.waitForFunction(
        (h) =>
          (globalThis as any).document
            .querySelector('[data-testid="lightbox-carousel"] > [role="separator"]')
            ?.getAttribute('aria-valuenow') === h,
        String(px),
      );
    await carouselAt(260);
    expect(Math.round((await page.getByTestId('lightbox-carousel').boundingBox())!.height)).toBe(260);
    expect(await edge.getAttribute('aria-valuemin')).toBe('150');
    const grip = (await edge.boundingBox())!;
    await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2);
    await page.mouse.down();
    await page.mouse.move(grip.x + grip.width / 2, grip.y + 400, { steps: 4 });
    await page.mouse.up();
    await carouselAt(150);
    await edge.dblclick();
    await carouselAt(250);

    // The User tab: this user's photos only.
    const user = past.find((p) => p.id === firstId)!.userId;
    const ofUser = past.filter((p) => p.userId === user).length;
    expect(ofUser).toBeGreaterThan(1);
    await box.getByRole('tab', { name: `User: ${user}` }).click();
    await page.waitForFunction(
      (n) => (globalThis as any).document.querySelectorAll('[data-strip-id]').length === n,
      ofUser,
    );
    await page.keyboard.press('Escape');
    await box.waitFor({ state: 'detached' });
    await context.close();
  }, 120_000);

  it('lightbox vision card draws face boxes and shows only confident traits', async () => {
    const { page, context, album } = await open();
    const withFaces = past.filter((p) => p.faces === 2).map((p) => p.id);
    const nth = (await album.tileIds()).findIndex((id) => withFaces.includes(id));
    expect(nth).toBeGreaterThanOrEqual(0);
    const box = await album.openLightbox(nth);
    await box.getByRole('button', { name: 'Vision' }).click();
    await page.waitForFunction(
      () => (globalThis as any).document.querySelectorAll('[data-testid="face-box"]').length === 2,
    );
    const facts = box.getByTestId('face-facts');
    expect(await facts.count()).toBe(2);
    const text = await facts.first().textContent();
    expect(text).toContain('Eyeglasses');
    expect(text).not.toContain('Sunglasses');
    expect(text).not.toContain('confused');
    expect(text).toContain('happy');
    await stack.screenshot(page, 'lightbox-vision-1280');
    await box.getByRole('button', { name: 'Close' }).click();
    await box.waitFor({ state: 'detached' });
    await context.close();
  });

  it('lightbox Exif card: a failed read says "Sorry Something Went Wrong", a photo without Exif "No data to display"', async () => {
    const { page, context, album } = await open();
    const [failId, bareId] = (await album.tileIds()).slice(0, 2);
    // A JPEG without any metadata (sharp writes none unless asked).
    const bare = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#336699' } })
      .jpeg()
      .toBuffer();
    const served: string[] = [];
    await page.route('**/api/snapshots/*/original', async (route: Route) => {
      const url = route.request().url();
      served.push(url);
      if (url.includes(failId)) await route.fulfill({ status: 500, json: { error: 'storage unavailable' } });
      else if (url.includes(bareId)) await route.fulfill({ status: 200, contentType: 'image/jpeg', body: bare });
      else await route.continue();
    });
    const box = await album.openLightbox();
    await album.showing(failId).waitFor();
    await box.getByRole('button', { name: 'Exif Data' }).click();
    await box.getByText(MSG.album.exifFailed, { exact: true }).waitFor();
    expect(served.some((u) => u.includes(failId))).toBe(true);

    // The next photo (the card stays open): its bytes hold no Exif.
    await album.step('ArrowRight');
    await album.showing(bareId).waitFor();
    await box.getByText(MSG.album.noData, { exact: true }).waitFor();
    expect(await box.getByText(MSG.album.exifFailed, { exact: true }).count()).toBe(0);
    await page.unroute('**/api/snapshots/*/original');
    await context.close();
  }, 180_000);

  it('a deep link opens the lightbox on that photo and the address becomes "/"', async () => {
    const target = past[40];
    const { page, context } = await stack.newPage({ login: admin, path: `/snapshot/${target.id}` });
    await page.waitForURL(`${stack.url}/`);
    const album = albumPage(page);
    await album.showing(target.id).waitFor();
    await album.lightbox.getByRole('tab', { name: `User: ${target.userId}` }).waitFor();
    // Opened in the middle: placed among all the event's photos (newest first), not in the strip.
    await expect.poll(() => page.getByTestId('lightbox-position').textContent()).toBe(await placeOf(page, target.id));
    await context.close();

    const missing = await stack.newPage({ login: admin, path: '/snapshot/no-such-photo' });
    await missing.page.getByText("Something went wrong. We couldn't load the snapshot. Please try again").waitFor();
    await missing.context.close();
  });

  it('a .mp4 photo plays as a video in the lightbox', async () => {
    const ev = {
      slugDate: 'stadiumcam-2025-03-12',
      title: 'Video Game',
      gameDate: '2025-03-12',
      status: 'post' as const,
    };
    await seedEvent(stack, ev);
    const id = randomUUID();
    // Bytes are enough here: the console decides by the .mp4 name and the server by its type.
    const clip = await stack.app.deps.media.put(`${ev.slugDate}/${id}/clip.mp4`, Buffer.alloc(2048, 1));
    const { thumb } = await renderPhoto(3);
    const thumbUri = await stack.app.deps.media.put(`${ev.slugDate}/${id}/thumb.jpg`, thumb);
    await makePhoto(stack.app.deps.db, {
      id,
      slug: 'stadiumcam',
      slugDate: ev.slugDate,
      userId: 'video-fan',
      camera: 'cam1',
      section: '101',
      row: '1',
      seat: '1',
      date: new Date('2025-03-13T01:00:00Z'),
      thumbUri,
      smallUri: thumbUri,
      rawCroppedUri: clip,
      mediaType: 'video/mp4',
    });
    const { context, album } = await open([ev.slugDate]);
    expect(await album.tiles.first().getByTestId('media-type').getAttribute('data-media')).toBe('video');
    const { page: deep, context: deepContext } = await stack.newPage({ login: admin, path: `/snapshot/${id}` });
    const video = albumPage(deep).lightbox.getByTestId('lightbox-video');
    await video.waitFor();
    const src = await video.getAttribute('src');
    expect(src).toMatch(/clip\.mp4$/);
    expect(await video.getAttribute('controls')).not.toBeNull();
    const served = await deep.request.get(new URL(src!, stack.url).toString());
    expect(served.status()).toBe(200);
    expect(served.headers()['content-type']).toBe('video/mp4');
    await deepContext.close();
    await context.close();
  });

  it('a new photo from the simulator joins page 1 of All Photos live, not page 2', async () => {
    const { context, album } = await open([EARLIER.slugDate]);
    expect(await album.autoRefresh.isChecked()).toBe(true);
    const pool = new PhotoPool(createRng(5));

    // The simulator's photo through the real ingest path, as its camera host uploads it.
    const upload = async () => {
      const photo = await pool.take();
      const metadata = {
        slugDate: EARLIER.slugDate,
        userId: 'u-live',
        camera: 'cam1',
        section: '7',
        row: 'B',
        seat: '12',
      };
      return (await uploadPhoto(stack, { ...metadata, faces: photo.faces }, photo.jpeg))._id;
    };

    // Auto Refresh off: the count moves, the page stays; switching it on refreshes at once.
    await album.autoRefresh.click({ force: true });
    const quiet = await upload();
    await album.waitForCount('all', 106);
    expect(await album.tile(quiet).count()).toBe(0);
    await album.autoRefresh.click({ force: true });
    await album.tile(quiet).waitFor();

    const fresh = await upload();
    await album.tile(fresh).waitFor();
    expect(await album.tiles.first().getAttribute('data-id')).toBe(fresh);
    await album.waitForCount('all', 107);
    expect(await album.tiles.count()).toBe(100);

    await album.pageButton(2).click();
    await album.waitForTiles(7);
    const page2 = await album.tileIds();
    const later = await upload();
    await album.waitForCount('all', 108);
    expect(await album.tile(later).count()).toBe(0);
    expect(await album.tileIds()).toEqual(page2);
    await context.close();
  });

  it('a share raises the Shared count only for a photo’s first post (spec 1 §4)', async () => {
    const ev = {
      slugDate: 'stadiumcam-2025-03-11',
      title: 'Share Game',
      gameDate: '2025-03-11',
      status: 'post' as const,
    };
    await seedEvent(stack, ev);
    const start = Date.parse('2025-03-12T01:00:00Z');
    const [a, b] = await seedPhotos(stack, ev.slugDate, 2, (i) => new Date(start - i * 60_000), { users: 's' });
    const { context, album } = await open([ev.slugDate]);
    expect(await album.countOf('shared')).toBe(0);
    // The attendee app's share call, as a fan's phone makes it.
    const share = async (p: Seeded, socialSource: 'Download' | 'Email' | 'print') => {
      const res = await fetch(`${stack.url}/api/public/snapshots/${p.id}/share`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ userId: p.userId, socialSource }),
      });
      expect(res.status).toBe(200);
    };
    const shares = (p: Seeded) => album.tile(p.id).getByTestId('shared-count').textContent();

    await share(a, 'Download');
    await album.waitForCount('shared', 1);
    await expect.poll(() => shares(a)).toBe('1');
    // A second post of the same photo: the tile counts it, the Shared tab does not.
    await share(a, 'Email');
    await expect.poll(() => shares(a)).toBe('2');
    expect(await album.countOf('shared')).toBe(1);
    await share(b, 'print');
    await expect.poll(() => shares(b)).toBe('1');
    expect(await album.countOf('shared')).toBe(2);
    await context.close();
  }, 180_000);

  it('export: the selection export needs a selection; exporting all is disabled while the event is live (spec 1 §5)', async () => {
    const { page, context, album } = await open();
    const menuItem = (name: string) => page.getByRole('menuitem', { name, exact: true });
    await album.exportButton.click();
    expect(await menuItem('Export selected (0)').isDisabled()).toBe(true);
    expect(await menuItem('Export all photos of the event').isDisabled()).toBe(false);
    await page.keyboard.press('Escape');
    await stack.app.deps.db.update(events).set({ eventStatus: 'live' }).where(eq(events.slugDate, PAST.slugDate));
    try {
      await page.reload();
      await album.tiles.first().waitFor();
      await album.select(0);
      await album.exportButton.click();
      await menuItem('Export selected (1)').waitFor();
      expect(await menuItem('Export selected (1)').isDisabled()).toBe(false);
      expect(await menuItem('Export all photos of the event').isDisabled()).toBe(true);
    } finally {
      await stack.app.deps.db.update(events).set({ eventStatus: 'post' }).where(eq(events.slugDate, PAST.slugDate));
    }
    await context.close();
  }, 180_000);

  it('looks deliberate at 1920×1080', async () => {
    const { page, context, album } = await open([PAST.slugDate], { width: 1920, height: 1080 });
    await page.getByRole('switch', { name: 'Show Overlays' }).waitFor();
    await stack.screenshot(page, 'album-1920');
    await album.openLightbox(2);
    await page.getByTestId('lightbox-strip').waitFor();
    await stack.screenshot(page, 'lightbox-1920');
    await context.close();
  });
});
