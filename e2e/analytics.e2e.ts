import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_REQUEST_MAILTO, MSG, P, type UploadFace } from '@stadiumcam/contract';
import { events } from '../apps/server/src/db/schema/index.ts';
import { insertSnapshot } from '../apps/server/src/modules/snapshots/snapshots.repository.ts';
import { ADMIN_PASSWORD, startStack, type Stack } from './fixtures/stack.ts';

const admin = { username: 'admin', password: ADMIN_PASSWORD };
const TZ = 'America/Winnipeg';
/** A finished event with a hand-made set of photos: 12 photos of 6 fans in two sections. */
const DONE = { slugDate: 'stadiumcam-2025-05-10', title: 'Finished Game', gameDate: '2025-05-10' };
const PHOTOS = 12;

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

async function seedFinishedEvent(stack: Stack): Promise<string[]> {
  const start = new Date(`${DONE.gameDate}T23:00:00Z`);
  await stack.app.deps.db.insert(events).values({
    id: randomUUID(),
    slug: 'stadiumcam',
    slugDate: DONE.slugDate,
    template: false,
    title: DONE.title,
    eventStatus: 'post',
    gameDate: DONE.gameDate,
    startTime: start,
    endTime: new Date(start.getTime() + 4 * 3600_000),
    timezone: TZ,
    config: {},
  });
  const ids: string[] = [];
  for (let i = 0; i < PHOTOS; i++) {
    const id = randomUUID();
    const date = new Date(start.getTime() + i * 10 * 60_000);
    const uri = `/media/${DONE.slugDate}/${id}/raw.jpg`;
    await insertSnapshot(stack.app.deps.db, {
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
    });
    ids.push(id);
  }
  return ids;
}

/** Chooses one event in a page's single-event selector, as an operator does. */
async function chooseEvent(page: Page, slugDate: string) {
  await page.getByTestId('event-selector').getByTestId('event-selector-button').click();
  await page.getByTestId('event-selector-list').locator(`tr[data-slugdate="${slugDate}"]`).click();
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.getByTestId('event-selector-list').waitFor({ state: 'detached' });
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

  beforeAll(async () => {
    stack = await startStack({ simulator: { camerasPerHost: 2, attendeeRate: 1, turnMs: 2000 } });
    seeded = await seedFinishedEvent(stack);
    const [live] = await stack.app.deps.db.select({ id: events.id }).from(events).where(eq(events.eventStatus, 'live'));
    liveId = live.id;
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('shows the live simulated event: redirect to its id, figures growing by socket, no Export Data', async () => {
    const { page, context } = await stack.newPage({ login: admin, path: '/analytics' });
    await page.waitForURL(`${stack.url}/analytics/${liveId}`);
    await page.getByTestId('figure-Snapshots').waitFor();
    const first = await figure(page, 'Snapshots');
    // New photos from the simulator reach the page without a reload (at most every 10 s).
    await page.evaluate('window.stillHere = true');
    await expect.poll(() => figure(page, 'Snapshots'), { timeout: 45_000, interval: 1000 }).toBeGreaterThan(first);
    expect(await page.evaluate('window.stillHere')).toBe(true);
    expect(await page.getByRole('link', { name: MSG.analytics.exportData }).count()).toBe(0);
    await context.close();
  });

  it('reads a finished event: its figures, an emotion line toggled from the legend, the CSV link and the print layout', async () => {
    const { page, context } = await stack.newPage({ login: admin, path: '/analytics' });
    await page.waitForURL(`${stack.url}/analytics/${liveId}`);
    await chooseEvent(page, DONE.slugDate);
    await page.waitForURL(/\/analytics\/[^/]+$/);
    expect(page.url()).not.toContain(liveId);
    await expect.poll(() => figure(page, 'Snapshots')).toBe(PHOTOS);
    expect(await figure(page, 'Users')).toBe(6);
    // Six photos carry one face each: a group size of 1, times 6 devices.
    await page.getByTestId('panel-engaged').getByText('From 6 photos with face data.').waitFor();

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
    await expect.poll(() => figure(page, 'Snapshots')).toBe(PHOTOS);
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
    await expect.poll(() => rows.count()).toBe(PHOTOS);

    // Section 102 holds photos 8..11.
    await page.getByRole('combobox', { name: 'Section' }).click();
    await page.getByRole('option', { name: '102' }).click();
    await page.keyboard.press('Escape');
    await expect.poll(() => rows.count()).toBe(4);
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
    await page.getByRole('dialog', { name: 'Ban Photo' }).getByRole('button', { name: 'Confirm' }).click();
    const row = rows.filter({ hasText: target });
    await row.getByText('Banned').waitFor();
    await expect.poll(() => ban.textContent()).toBe('Unban');

    // One banned and one not: the button cannot decide, so it is disabled.
    await page.getByRole('checkbox', { name: `Select ${seeded[9]}` }).check();
    expect(await ban.isDisabled()).toBe(true);
    await page.getByRole('checkbox', { name: `Select ${seeded[9]}` }).uncheck();
    await ban.click();
    await row.getByText('Banned').waitFor({ state: 'detached' });
    await expect.poll(() => ban.textContent()).toBe('Ban');

    await page.getByRole('checkbox', { name: `Select ${target}` }).check();
    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: MSG.album.deletePhotoConfirm });
    await dialog.getByText(MSG.album.deleteIrreversible).waitFor();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.getByText(MSG.album.snapshotDeleted).waitFor();
    await expect.poll(() => rows.count()).toBe(3);
    await stack.screenshot(page, 'event-users-1280');
    await context.close();
  });
});
