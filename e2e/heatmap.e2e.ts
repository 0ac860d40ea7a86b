import { eq } from 'drizzle-orm';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG, type Heatmap } from '@stadiumcam/contract';
import { events } from '../apps/server/src/db/schema/index.ts';
import { makeEvent, makePhoto } from '../apps/server/src/test/factories.ts';
import { ADMIN_PASSWORD, startStack, type Stack } from './fixtures/stack.ts';

/*
 * The seat heat map (issue 32 points 3 and 4): with the simulator running, a half-time rush in
 * two sections makes them the hottest on the map by joins and then by photos; the hover text
 * is the server's count; a click shows the section's rows × seats; the difference with the past
 * event; the print layout.
 */

const admin = { username: 'admin', password: ADMIN_PASSWORD };
const WAIT = { timeout: 60_000, interval: 1000 };
const BUSY = ['105', '213'];
const FANS = 8;
const PAST = { slugDate: 'stadiumcam-2025-04-01', title: 'Past Game' };

/** Each section's count as its sector says it ("Section 105: 9 joins"), hottest first. */
async function hottest(bowl: Locator): Promise<{ section: string; n: number }[]> {
  const labels = await bowl
    .getByRole('button')
    .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
  return labels
    .map((l) => /^Section (\S+): (-?[\d,]+) /.exec(l))
    .filter((m) => m !== null)
    .map((m) => ({ section: m[1], n: Number(m[2].replace(/,/g, '')) }))
    .sort((a, b) => b.n - a.n);
}

const topTwo = async (bowl: Locator) =>
  (await hottest(bowl))
    .slice(0, 2)
    .map((s) => s.section)
    .sort();

/** The server's own answer, asked from inside the logged-in page. */
const heatmapOf = (page: Page, slugDate: string, query: string): Promise<Heatmap> =>
  page.evaluate(async ([s, q]) => (await fetch(`/api/analytics/${s}/heatmap?${q}`)).json() as Promise<Heatmap>, [
    slugDate,
    query,
  ] as const);

describe('seat heat map', () => {
  let stack: Stack;
  let live: { slugDate: string; title: string };

  beforeAll(async () => {
    stack = await startStack({ simulator: { camerasPerHost: 4, attendeeRate: 0.2, turnMs: 700 } });
    const db = stack.app.deps.db;
    // The past event the map is compared with by default: a few photos in section 101.
    await makeEvent(db, PAST.slugDate, { title: PAST.title, eventStatus: 'post' });
    for (let i = 0; i < 3; i++) await makePhoto(db, { slugDate: PAST.slugDate, section: '101', seat: String(i + 1) });
    [live] = await db
      .select({ slugDate: events.slugDate, title: events.title })
      .from(events)
      .where(eq(events.eventStatus, 'live'));
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('shows the busy sections hottest, the count on hover, the seats on a click, the difference and the print', async () => {
    // The simulator's technician uploads the bowl's seat map once its hosts said hello.
    await expect.poll(() => stack.app.deps.seatMap.current.cameras.length, WAIT).toBe(4);
    // Half-time: fans rush to the cameras from two sections.
    await stack.venue!.crowd.halfTime(BUSY, FANS);
    // The crowd stops arriving, so the joins stay as counted; the cameras go on photographing the queues.
    await stack.venue!.crowd.stop();
    const { page, context } = await stack.newPage({ login: admin, path: '/analytics' });
    const panel = page.getByTestId('panel-heatmap');
    await panel.waitFor();
    const metric = panel.getByRole('radiogroup', { name: 'Heat map metric' });
    const view = panel.getByRole('radiogroup', { name: 'Comparison view' });
    await metric.getByText('Joins', { exact: true }).click();
    // Side by side with the past event (the previous one with photos): the live event's bowl first.
    const bowl = page.getByRole('group', { name: `Seat heat map of ${live.title}`, exact: true });
    await page.getByRole('group', { name: `Seat heat map of ${PAST.title}`, exact: true }).waitFor();
    await expect.poll(() => topTwo(bowl), WAIT).toEqual(BUSY);
    const joins = await heatmapOf(page, live.slugDate, 'metric=joins');
    const s105 = joins.sections.find((s) => s.section === '105')!;
    expect(s105.count).toBeGreaterThanOrEqual(FANS);
    // The whole bowl of the seat map: two tiers of 16 sections.
    expect(await bowl.getByRole('button').count()).toBe(32);

    // Hover: the section's count as the server counts it; the legend is there.
    await bowl.locator('[data-section="105"]').hover();
    await expect
      .poll(() => page.getByTestId('heatmap-hover').textContent(), WAIT)
      .toBe(`Section 105: ${s105.count} joins`);
    expect(await page.getByTestId('heatmap-legend').isVisible()).toBe(true);

    // A click: the section's rows × seats, each joined seat with its count.
    await bowl.locator('[data-section="105"]').click();
    const seats = page.getByTestId('heatmap-seats');
    await seats.getByText('Section 105: rows × seats').waitFor();
    const grid = seats.getByRole('group', { name: `Seats of Section 105, ${live.title}`, exact: true });
    expect(await grid.getByRole('img').count()).toBe(12 * 20);
    const sectionSeats = (await heatmapOf(page, live.slugDate, 'metric=joins&section=105')).seats!;
    const joined = sectionSeats.filter((s) => s.count > 0);
    expect(joined.reduce((n, s) => n + s.count, 0)).toBe(s105.count);
    expect(joined.length).toBeGreaterThanOrEqual(FANS);
    const one = joined[0];
    await grid
      .getByRole('img', {
        name: `Section 105 row ${one.row} seat ${one.seat}: ${one.count} ${one.count === 1 ? 'join' : 'joins'}`,
        exact: true,
      })
      .waitFor();

    // Photos: the simulated cameras photograph the rush; the map follows the live event.
    await metric.getByText('Photos', { exact: true }).click();
    await expect.poll(() => topTwo(bowl), { timeout: 120_000, interval: 2000 }).toEqual(BUSY);

    await bowl.scrollIntoViewIfNeeded();
    await stack.screenshot(page, 'heatmap-side-1280');

    // The difference with the past event: one bowl, each section's change.
    await view.getByText('Difference', { exact: true }).click();
    const diff = page.getByRole('group', { name: `Seat heat map of ${live.title} against ${PAST.title}`, exact: true });
    await diff.waitFor();
    const photos = await heatmapOf(page, live.slugDate, `metric=photos&compare=${PAST.slugDate}`);
    const p101 = photos.sections.find((s) => s.section === '101')!;
    expect(p101.compareCount).toBe(3);
    const change = p101.count - 3;
    expect(await diff.locator('[data-section="101"]').getAttribute('aria-label')).toBe(
      `Section 101: ${change > 0 ? '+' : ''}${change} photos against ${PAST.title} (${p101.count} vs 3)`,
    );
    await diff.scrollIntoViewIfNeeded();
    await stack.screenshot(page, 'heatmap-diff-1280');

    // Print: the controls go, the bowl stays, its data comes as a table.
    await page.emulateMedia({ media: 'print' });
    expect(await view.isVisible()).toBe(false);
    expect(await diff.isVisible()).toBe(true);
    expect(await panel.getByRole('columnheader', { name: 'Difference' }).isVisible()).toBe(true);
    expect(await page.getByText(MSG.analytics.heatmapFailed).count()).toBe(0);
    await context.close();
  }, 300_000);
});
