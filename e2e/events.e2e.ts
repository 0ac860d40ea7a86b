import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page, Route } from 'playwright-core';
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import timezone from 'dayjs/plugin/timezone.js';
import { randomUUID } from 'node:crypto';
import { MSG } from '@stadiumcam/contract';
import { ADMIN_PASSWORD, startStack, type Stack } from './fixtures/stack.ts';
import { eventSelector } from './fixtures/event-selector.ts';
import { makeEvent } from '../apps/server/src/test/factories.ts';
import { goLiveDialog } from './fixtures/go-live.ts';

dayjs.extend(utc);
dayjs.extend(timezone);

const TZ = 'America/Winnipeg';
const admin = { username: 'admin', password: ADMIN_PASSWORD };
// Days at least two days ahead, so the run does not depend on the time of day.
const today = dayjs().tz(TZ).format('YYYY-MM-DD');
const day = (n: number) => dayjs.tz(today, TZ).add(n, 'day').format('YYYY-MM-DD');
const [d1, d2, d3] = [day(3), day(4), day(5)];
const ddmmyyyy = (ymd: string) => dayjs(ymd).format('DD/MM/YYYY');
const SERIES = 'Hockey Night';

/** Shows the month of a day in the calendar. */
async function showMonth(page: Page, ymd: string) {
  const want = dayjs(ymd).format('MMMM YYYY');
  for (let i = 0; i < 24; i++) {
    const shown = (await page.getByTestId('calendar-month').textContent()) ?? '';
    if (shown === want) return;
    const forward = dayjs(`1 ${shown}`).isBefore(dayjs(ymd), 'month');
    await page.getByRole('button', { name: forward ? 'Next month' : 'Previous month' }).click();
  }
  throw new Error(`month ${want} not reached`);
}

/** Clicks a day of the calendar as an operator would: on its number. */
async function clickDay(page: Page, ymd: string, modifiers?: 'Shift'[]) {
  await showMonth(page, ymd);
  await page.locator(`[data-date="${ymd}"] [data-day-number]`).click({ modifiers });
}

const card = (page: Page, slugDate: string) => page.locator(`[data-testid=event-card][data-slugdate="${slugDate}"]`);

async function openCardMenu(page: Page, slugDate: string) {
  await showMonth(page, slugDate.slice(-10));
  await card(page, slugDate).click();
  const menu = page.getByRole('menu');
  await menu.getByRole('menuitem').first().waitFor();
  return menu;
}

async function pickOption(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function closeModal(page: Page, text: string) {
  await page.getByText(text, { exact: true }).waitFor();
  await page.keyboard.press('Escape');
  await page.getByText(text, { exact: true }).waitFor({ state: 'detached' });
}

const headerDot = (page: Page) => page.getByTestId('header-event').getByTestId('status-dot');

describe('events console', () => {
  let stack: Stack;
  let page: Page;
  let context: BrowserContext;
  let todaySlug: string;

  beforeAll(async () => {
    stack = await startStack();
    ({ page, context } = await stack.newPage({ login: admin }));
  }, 300_000);
  afterAll(async () => {
    await stack?.close();
  });

  it('selects the current event at login: the master template while there are no events', async () => {
    await page.getByTestId('header-event-selector').getByText(MSG.events.masterTemplate).waitFor();
    await page.getByTestId('header-event-selector').getByTestId('event-selector-button').click();
    await page.getByRole('dialog', { name: 'Select an event' }).getByText(MSG.events.noEvents).waitFor();
    await page.keyboard.press('Escape');
    await page.getByText(MSG.events.noEvents).waitFor({ state: 'hidden' });
    // Today's event becomes the current one; a new session selects it.
    const start = new Date(Math.floor(Date.now() / 900_000) * 900_000);
    const gameDate = dayjs(start).tz(TZ).format('YYYY-MM-DD');
    todaySlug = `stadiumcam-${gameDate}`;
    const res = await page.request.post('/api/events', {
      headers: { Origin: stack.url },
      data: {
        gameDate,
        slugDate: todaySlug,
        title: 'Game day',
        startTime: start.toISOString(),
        endTime: new Date(start.getTime() + 2 * 3600_000).toISOString(),
      },
    });
    expect(res.status()).toBe(200);
    // A reload keeps the tab's selection (issue 10); a new session starts without one.
    await page.evaluate(() => (globalThis as any).sessionStorage.clear());
    await page.goto(stack.url + '/');
    await page.getByTestId('header-event-title').getByText('Game day').waitFor();
    expect(await headerDot(page).getAttribute('data-state')).toBe('semi-active');
    // One colour per status: the header's dot, the event's card and the legend agree.
    const colour = (l: ReturnType<Page['locator']>, prop: string) =>
      l.evaluate((el, p) => (globalThis as any).getComputedStyle(el).getPropertyValue(p) as string, prop);
    const dot = await colour(headerDot(page), 'background-color');
    expect(await colour(card(page, todaySlug), 'border-left-color')).toBe(dot);
    expect(await colour(page.getByTestId('legend-pre'), 'background-color')).toBe(dot);
  });

  it('creates a three-day series by clicking days, with the form rules', async () => {
    await page.getByTestId('calendar-legend').getByText('Upcoming').waitFor();
    await clickDay(page, d1);
    await clickDay(page, d2);
    await clickDay(page, d3);
    await page.getByText('3 days selected').waitFor();
    await stack.screenshot(page, 'events-calendar-selection-1280');
    await page.getByRole('button', { name: 'Create event' }).click();
    const modal = page.getByTestId('event-form-modal');
    for (const d of [d1, d2, d3]) await modal.getByText(ddmmyyyy(d)).waitFor();

    await modal.getByRole('button', { name: 'Create', exact: true }).click();
    for (const text of [MSG.events.eventNameRequired, MSG.events.startTimeRequired, MSG.events.endTimeRequired]) {
      await modal.getByText(text).waitFor();
    }
    await modal.getByLabel('Event name').fill(SERIES);
    await pickOption(page, 'Start time', '07:00pm');
    await pickOption(page, 'End time', '06:00pm');
    await modal.getByRole('button', { name: 'Create', exact: true }).click();
    await modal.getByText(MSG.events.endAfterStart).waitFor();
    await modal.getByLabel('Next Day').check();
    await pickOption(page, 'End time', '07:15pm');
    await modal.getByRole('button', { name: 'Create', exact: true }).click();
    await modal.getByText(MSG.events.eventTooLong).waitFor();
    // Past midnight: the card says so with (+1).
    await pickOption(page, 'End time', '01:00am');
    await stack.screenshot(page, 'events-create-modal-1280');
    await modal.getByRole('button', { name: 'Create', exact: true }).click();
    await modal.waitFor({ state: 'detached' });

    for (const d of [d1, d2, d3]) {
      await showMonth(page, d);
      const c = card(page, `stadiumcam-${d}`);
      await c.waitFor();
      expect(await c.textContent()).toContain(SERIES);
      // The whole range shows in a day at 1280 px with the menu open: nothing cut off.
      const time = c.getByTestId('event-card-time');
      expect(await time.textContent()).toMatch(/^07:00pm - 01:00am\u00a0\(\+1\)\u00a0C[SD]T$/);
      expect(
        await time.evaluate((el) => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight + 1),
      ).toBe(true);
    }
    await stack.screenshot(page, 'events-calendar-next-day-1280');
  });

  it('refuses a past day and a day that already has an event', async () => {
    await clickDay(page, day(-1));
    await closeModal(page, MSG.events.eventInPast);
    await clickDay(page, d1);
    await closeModal(page, MSG.events.eventDayTaken);
    // A shift-range across a taken day is refused as a whole.
    await clickDay(page, day(7));
    await clickDay(page, d3, ['Shift']);
    await closeModal(page, MSG.events.eventDayTaken);
    await page.getByText('1 day selected').waitFor();
    await page.getByRole('button', { name: 'Clear' }).click();
  });

  it('edits an event from its menu', async () => {
    const menu = await openCardMenu(page, `stadiumcam-${d2}`);
    // A pre event offers Go live (through the checklist) but no Album or Analytics.
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual(['Go live', 'Edit', 'Template', 'Delete']);
    await menu.getByRole('menuitem', { name: 'Edit' }).click();
    const modal = page.getByTestId('event-form-modal');
    expect(await modal.getByLabel('Event name').inputValue()).toBe(SERIES);
    await modal.getByLabel('Event name').fill('');
    await modal.getByRole('button', { name: 'Update' }).click();
    await modal.getByText(MSG.events.eventNameRequired).waitFor();
    await modal.getByLabel('Event name').fill('Playoffs');
    await modal.getByLabel('Next Day').uncheck();
    await pickOption(page, 'End time', '11:00pm');
    await modal.getByRole('button', { name: 'Update' }).click();
    await closeModal(page, MSG.events.eventUpdated);
    expect(await card(page, `stadiumcam-${d2}`).textContent()).toContain('Playoffs07:00pm - 11:00pm');
    // Choosing a menu item selected the event.
    expect(await page.getByTestId('header-event-title').textContent()).toBe('Playoffs');
    // The calendar's legend, and Today after paging away (spec 1 §2).
    expect(await page.getByTestId('calendar-legend').textContent()).toBe('PastLiveUpcoming');
    const shown = (ymd: string) =>
      page
        .getByTestId('calendar-month')
        .filter({ hasText: new RegExp(`^${dayjs(ymd).format('MMMM YYYY')}$`) })
        .waitFor();
    await page.getByRole('button', { name: 'Next month' }).click();
    await shown(dayjs(d2).add(1, 'month').format('YYYY-MM-DD'));
    await page.getByRole('button', { name: 'Previous month' }).click();
    await shown(d2);
    await page.getByRole('button', { name: 'Next month' }).click();
    await page.getByRole('button', { name: 'Today' }).click();
    await shown(today);
  });

  it('a create, an update or a delete the server fails says so and changes nothing', async () => {
    const fail = (route: Route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"database down"}' });
    await page.route('**/api/events', (route) =>
      ['POST', 'PUT'].includes(route.request().method()) ? fail(route) : route.fallback(),
    );
    try {
      await clickDay(page, day(9));
      await page.getByRole('button', { name: 'Create event' }).click();
      const modal = page.getByTestId('event-form-modal');
      await modal.getByLabel('Event name').fill('Refused');
      await pickOption(page, 'Start time', '07:00pm');
      await pickOption(page, 'End time', '10:00pm');
      await modal.getByRole('button', { name: 'Create', exact: true }).click();
      await page.getByRole('dialog').getByText(MSG.events.eventCreateFailed, { exact: true }).waitFor();
      await page.keyboard.press('Escape');
      await page.getByText(MSG.events.eventCreateFailed, { exact: true }).waitFor({ state: 'detached' });
      if (await modal.isVisible()) await modal.getByRole('button', { name: 'Cancel' }).click();
      const clear = page.getByRole('button', { name: 'Clear' });
      if (await clear.isVisible()) await clear.click();
      expect(await card(page, `stadiumcam-${day(9)}`).count()).toBe(0);

      const menu = await openCardMenu(page, `stadiumcam-${d2}`);
      await menu.getByRole('menuitem', { name: 'Edit' }).click();
      const edit = page.getByTestId('event-form-modal');
      await edit.getByLabel('Event name').fill('Never saved');
      await edit.getByRole('button', { name: 'Update' }).click();
      await page.getByRole('dialog').getByText(MSG.events.eventUpdateFailed, { exact: true }).waitFor();
      await page.keyboard.press('Escape');
      await page.getByText(MSG.events.eventUpdateFailed, { exact: true }).waitFor({ state: 'detached' });
      if (await edit.isVisible()) await edit.getByRole('button', { name: 'Cancel' }).click();

      await page.route('**/api/events/*/delete/false', fail);
      const again = await openCardMenu(page, `stadiumcam-${d2}`);
      await again.getByRole('menuitem', { name: 'Delete' }).click();
      const del = page.getByTestId('delete-event-modal');
      await del.getByLabel('Slug date').fill(`stadiumcam-${d2}`);
      await del.getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('dialog').getByText(MSG.events.eventDeleteFailed, { exact: true }).waitFor();
      await page.keyboard.press('Escape');
      await page.getByText(MSG.events.eventDeleteFailed, { exact: true }).waitFor({ state: 'detached' });
      if (await del.isVisible()) await page.keyboard.press('Escape');
    } finally {
      await page.unroute('**/api/events');
      await page.unroute('**/api/events/*/delete/false');
    }
    await page.reload();
    await showMonth(page, d2);
    expect(await card(page, `stadiumcam-${d2}`).textContent()).toContain('Playoffs');
    expect(await card(page, `stadiumcam-${day(9)}`).count()).toBe(0);
  });

  it('deletes an event only with the right slug date', async () => {
    const slug = `stadiumcam-${d3}`;
    const menu = await openCardMenu(page, slug);
    await menu.getByRole('menuitem', { name: 'Delete' }).click();
    const modal = page.getByTestId('delete-event-modal');
    await modal.getByLabel('Slug date').fill(`stadiumcam-${d2}`);
    await modal.getByRole('button', { name: 'Delete' }).click();
    await modal.getByText(MSG.events.wrongSlugDate).waitFor();
    expect(await card(page, slug).count()).toBe(1);
    await modal.getByLabel('Slug date').fill(slug);
    await modal.getByRole('button', { name: 'Delete' }).click();
    await closeModal(page, MSG.events.eventDeleted);
    await card(page, slug).waitFor({ state: 'detached' });
  });

  it('moves pre -> live -> post, seen live by a second console, with metrics and promotions while live', async () => {
    // Select today's event from its card menu, then go live from the power menu.
    const menu = await openCardMenu(page, todaySlug);
    await menu.getByRole('menuitem', { name: 'Edit' }).click();
    await page.getByTestId('event-form-modal').getByRole('button', { name: 'Cancel' }).click();
    await page.getByTestId('header-event-title').getByText('Game day').waitFor();
    expect(await page.getByRole('button', { name: 'Live Metrics' }).count()).toBe(0);

    const second = await stack.newPage({ login: admin });
    await second.page.getByTestId('header-event-title').getByText('Game day').waitFor();
    expect(await headerDot(second.page).getAttribute('data-state')).toBe('semi-active');

    await page.getByRole('button', { name: 'Power menu' }).click();
    await page.getByRole('radio', { name: 'Live' }).click();
    // The pre-live checklist first (no camera here: it fails, so it asks once more).
    await goLiveDialog(page).confirm();
    await page.locator('[data-testid=header-event] [data-testid=status-dot][data-state=active]').waitFor();
    // The other console follows without reloading.
    await second.page
      .locator('[data-testid=header-event] [data-testid=status-dot][data-state=active]')
      .waitFor({ timeout: 5_000 });
    await page.keyboard.press('Escape');

    // A live event's menu offers no Delete.
    const liveMenu = await openCardMenu(page, todaySlug);
    expect(await liveMenu.getByRole('menuitem').allTextContents()).toEqual(['Edit', 'Template', 'Album', 'Analytics']);
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Live Metrics' }).click();
    const drawer = page.getByTestId('live-metrics-drawer');
    for (const m of ['current', 'peak', 'snapshots', 'shares']) {
      expect(await drawer.getByTestId(`metric-${m}`).textContent()).toMatch(/\d+$/);
    }
    // Pushed by the server: the drawer follows without asking again.
    stack.app.deps.realtime.toEvent(todaySlug, 'monitor metrics', {
      slugDate: todaySlug,
      current: 7,
      peak: 12,
      snapshots: 34,
      shares: 5,
    });
    await drawer.getByTestId('metric-peak').getByText('12', { exact: true }).waitFor({ timeout: 5_000 });
    expect(await drawer.getByTestId('metric-snapshots').textContent()).toBe('Snapshots34');
    await stack.screenshot(page, 'events-metrics-drawer-1280');

    await drawer.getByRole('button', { name: 'Promo' }).click();
    const promo = page.getByTestId('promotion-modal');
    await pickOption(page, 'Type', 'LED boards');
    await promo.getByLabel('Start time').fill('tonight');
    await promo.getByRole('button', { name: 'Submit' }).click();
    await promo.getByText(MSG.events.timeNotValid).waitFor();
    await promo.getByLabel('Start time').fill(`${today} 20:30`);
    await promo.getByRole('button', { name: 'Submit' }).click();
    await promo.getByText(MSG.events.promoSubmitted).waitFor();
    await promo.getByTestId('promo-submit').locator('.tabler-icon-check').waitFor();
    expect(await promo.getByRole('combobox', { name: 'Promotion', exact: true }).inputValue()).toBe(
      `${today} 20:30 · LED boards`,
    );
    await stack.screenshot(page, 'events-promotion-modal-1280');
    await promo.getByRole('button', { name: 'Delete' }).click();
    await promo.getByText(MSG.events.promoDeleted).waitFor();
    expect(await promo.getByRole('combobox', { name: 'Promotion', exact: true }).inputValue()).toBe('New');
    await page.keyboard.press('Escape');
    await promo.getByRole('button', { name: 'Submit' }).waitFor({ state: 'detached' });
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });

    // live -> post before the scheduled end: set the end time to now.
    await page.getByRole('button', { name: 'Power menu' }).click();
    // The radio waits for the operator's choice, so it is clicked, not checked.
    await page.getByRole('radio', { name: 'Post' }).click();
    const early = page.getByTestId('early-end-modal');
    await early.getByRole('button', { name: 'Set end time to now' }).click();
    await closeModal(page, MSG.events.eventEndedNow);
    await page.locator('[data-testid=header-event] [data-testid=status-dot][data-state=off]').waitFor();
    await second.page
      .locator('[data-testid=header-event] [data-testid=status-dot][data-state=off]')
      .waitFor({ timeout: 5_000 });
    // The metrics drawer exists only while live.
    await page.getByRole('button', { name: 'Live Metrics' }).waitFor({ state: 'detached' });
    const event = (await (await page.request.get(`/api/event/${todaySlug}`)).json()) as {
      endTime: string;
      eventStatus: string;
    };
    expect(event.eventStatus).toBe('post');
    expect(Math.abs(Date.parse(event.endTime) - Date.now())).toBeLessThan(5 * 60_000);
    // A post event's menu offers no Edit or Template.
    await page.keyboard.press('Escape');
    const postMenu = await openCardMenu(page, todaySlug);
    expect(await postMenu.getByRole('menuitem').allTextContents()).toEqual(['Album', 'Analytics', 'Delete']);
    await page.keyboard.press('Escape');
    await second.context.close();
  });

  it('selects several events, a shift range, all of them, or the master template', async () => {
    await page.goto('/album');
    const selector = page.getByTestId('event-selector');
    await selector.getByTestId('event-selector-button').click();
    const modal = page.getByRole('dialog', { name: 'Select events' });
    const row = (slug: string) => modal.locator(`tr[data-slugdate="${slug}"]`);
    // Newest first: d2, d1, today.
    expect(
      await modal.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-slugdate'))),
    ).toEqual([`stadiumcam-${d2}`, `stadiumcam-${d1}`, todaySlug]);
    expect(await row(todaySlug).textContent()).toContain('Game day');
    await stack.screenshot(page, 'events-selector-modal-1280');
    // Start from none: select all twice.
    await modal.getByRole('checkbox', { name: 'Select all' }).click();
    await modal.getByRole('checkbox', { name: 'Select all' }).click();
    expect(await modal.getByRole('button', { name: 'Apply' }).isDisabled()).toBe(true);
    await row(`stadiumcam-${d2}`).click();
    await row(todaySlug).click({ modifiers: ['Shift'] });
    await modal.getByText('3 selected').waitFor();
    await modal.getByRole('button', { name: 'Apply' }).click();
    await selector.getByText('Selected: 3').waitFor();

    await selector.getByTestId('event-selector-button').click();
    await row(`stadiumcam-${d1}`).click();
    await modal.getByText('2 selected').waitFor();
    await modal.getByRole('checkbox', { name: 'Select all' }).click();
    await modal.getByText('3 selected').waitFor();
    await modal.getByRole('checkbox', { name: 'Select all' }).click();
    await row(`stadiumcam-${d1}`).click();
    await modal.getByRole('button', { name: 'Apply' }).click();
    await selector.getByText(dayjs(d1).format('ddd DD/MM/YYYY')).waitFor();

    // The header's selector (pages without their own) offers the master template.
    await page.getByRole('link', { name: 'Calendar' }).click();
    const header = page.getByTestId('header-event-selector');
    await header.getByTestId('event-selector-button').click();
    await page
      .getByRole('dialog', { name: 'Select an event' })
      .getByRole('button', { name: MSG.events.masterTemplate })
      .click();
    await header.getByText(MSG.events.masterTemplate).waitFor();
    expect(await page.getByTestId('header-event-title').count()).toBe(0);
  });

  it('the selector’s unapplied choice resets when the page changes (spec 1 §2)', async () => {
    // A finished event of its own, so the test does not lean on the ones made above.
    const slugDate = 'stadiumcam-2025-01-05';
    const start = new Date('2025-01-06T00:00:00Z');
    await makeEvent(stack.app.deps.db, slugDate, {
      id: randomUUID(),
      slug: 'stadiumcam',
      slugDate,
      template: false,
      title: 'Selector Reset',
      eventStatus: 'post',
      gameDate: '2025-01-05',
      startTime: start,
      endTime: new Date(start.getTime() + 3 * 3600_000),
      timezone: TZ,
      config: {},
    });
    await page.goto('/monitor');
    await page.getByRole('link', { name: 'Calendar' }).click();
    await page.waitForURL(`${stack.url}/`);
    const header = page.getByTestId('header-event-selector');
    const selector = eventSelector(page, 'header-event-selector');
    await selector.open();
    const modal = page.getByRole('dialog', { name: 'Select an event' });
    const row = selector.row(slugDate);
    await row.waitFor();
    const { ticked } = selector;
    const applied = await ticked();
    expect(applied).not.toContain(slugDate);
    await row.click();
    await expect.poll(ticked).toEqual([slugDate]);
    // Back to the monitor with the modal still open: the choice made on the calendar is gone.
    await page.goBack();
    await page.waitForURL(/\/monitor$/);
    await expect.poll(ticked).toEqual(applied);
    expect(await modal.isVisible()).toBe(true);
    expect(await header.getByTestId('event-selector-button').textContent()).not.toContain('05/01/2025');
    await page.keyboard.press('Escape');
    await modal.waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'Calendar' }).click();
    await page.waitForURL(`${stack.url}/`);
  });

  it('looks deliberate at 1920x1080', async () => {
    await page.setViewportSize({ width: 1920, height: 1080 });
    await showMonth(page, d1);
    await stack.screenshot(page, 'events-calendar-1920');
    await clickDay(page, day(8));
    await page.getByRole('button', { name: 'Create event' }).click();
    await page.getByTestId('event-form-modal').getByLabel('Event name').waitFor();
    await stack.screenshot(page, 'events-create-modal-1920');
    await page.getByTestId('event-form-modal').getByRole('button', { name: 'Cancel' }).click();
    await page.getByTestId('header-event-selector').getByTestId('event-selector-button').click();
    const modal = page.getByRole('dialog', { name: 'Select an event' });
    await modal.locator(`tr[data-slugdate="${todaySlug}"]`).click();
    await stack.screenshot(page, 'events-selector-modal-1920');
    await modal.getByRole('button', { name: 'Apply' }).click();
    await page.getByTestId('header-event-title').getByText('Game day').waitFor();
    // post -> live asks only the checklist; the drawer comes back with the live status.
    await page.getByRole('button', { name: 'Power menu' }).click();
    await page.getByRole('radio', { name: 'Live' }).click();
    await goLiveDialog(page).confirm();
    await page.getByRole('button', { name: 'Live Metrics' }).click();
    await page.getByTestId('live-metrics-drawer').getByTestId('metric-current').waitFor();
    await stack.screenshot(page, 'events-metrics-drawer-1920');
    await page.keyboard.press('Escape');

    // A refused status change rolls back and says why.
    await page.route('**/api/events', (route) =>
      route.request().method() === 'PUT'
        ? route.fulfill({ status: 409, contentType: 'application/json', body: '{"error":"stale"}' })
        : route.fallback(),
    );
    await page.getByRole('button', { name: 'Power menu' }).click();
    await page.getByRole('radio', { name: 'Pre' }).click();
    await page.getByText(MSG.events.eventDataOld).waitFor();
    expect(await headerDot(page).getAttribute('data-state')).toBe('active');
    expect(await page.getByRole('radio', { name: 'Live' }).isChecked()).toBe(true);
    await page.unroute('**/api/events');
    await context.close();
  });

  it('the Live Metrics drawer says "Error loading metrics." when the figures cannot be read', async () => {
    // Today's event is live again (the test above); a second console whose metrics call fails.
    const other = await stack.newPage({ login: admin });
    await other.page.route('**/api/events/metrics**', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"down"}' }),
    );
    await other.page.reload();
    await other.page.getByRole('button', { name: 'Live Metrics' }).click();
    const drawer = other.page.getByTestId('live-metrics-drawer');
    await drawer.getByText(MSG.events.metricsFailed, { exact: true }).waitFor();
    await other.context.close();
  });

  it('an end-now the server refuses says "Error trying to update the event" and the event stays live', async () => {
    // Today's event is live (above); its end, set to now earlier, goes back ahead of now.
    const other = await stack.newPage({ login: admin });
    const p = other.page;
    const endTime = new Date(Math.ceil(Date.now() / 900_000) * 900_000 + 2 * 3600_000).toISOString();
    const res = await p.request.put('/api/events', {
      headers: { Origin: stack.url },
      data: { slugDate: todaySlug, data: { eventStatus: 'live', endTime } },
    });
    expect(res.status()).toBe(200);
    await p.reload();
    await p.getByTestId('header-event-title').getByText('Game day').waitFor();
    await p.locator('[data-testid=header-event] [data-testid=status-dot][data-state=active]').waitFor();
    const sent: unknown[] = [];
    await p.route('**/api/events', (route) => {
      if (route.request().method() !== 'PUT') return route.fallback();
      sent.push(route.request().postDataJSON());
      return route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"database down"}' });
    });
    await p.getByRole('button', { name: 'Power menu' }).click();
    await p.getByRole('radio', { name: 'Post' }).click();
    await p.getByTestId('early-end-modal').getByRole('button', { name: 'Set end time to now' }).click();
    await p.getByRole('dialog').getByText(MSG.events.eventUpdateFailed, { exact: true }).waitFor();
    expect(await p.getByText(MSG.events.eventEndedNow).count()).toBe(0);
    expect(sent).toEqual([
      { slugDate: todaySlug, data: { eventStatus: 'post', endTime: expect.any(String) as unknown } },
    ]);
    await p.unroute('**/api/events');
    // Nothing changed: the status rolled back and the stored event is live with its end ahead.
    await p.locator('[data-testid=header-event] [data-testid=status-dot][data-state=active]').waitFor();
    const event = (await (await p.request.get(`/api/event/${todaySlug}`)).json()) as {
      endTime: string;
      eventStatus: string;
    };
    expect(event.eventStatus).toBe('live');
    expect(Date.parse(event.endTime)).toBe(Date.parse(endTime));
    await other.context.close();
  });

  it('the page is its first path segment: the unapplied choice stays from /admin/users to /admin/roles (spec 1 §2)', async () => {
    const other = await stack.newPage({ login: admin, path: '/admin/roles' });
    const p = other.page;
    await p.getByRole('link', { name: 'Users', exact: true }).click();
    await p.waitForURL(/\/admin\/users$/);
    const header = p.getByTestId('header-event-selector');
    const selector = eventSelector(p, 'header-event-selector');
    await selector.open();
    const modal = p.getByRole('dialog', { name: 'Select an event' });
    const slugDate = 'stadiumcam-2025-01-05';
    const row = selector.row(slugDate);
    await row.waitFor();
    const { ticked } = selector;
    const applied = await ticked();
    expect(applied).not.toContain(slugDate);
    await row.click();
    await expect.poll(ticked).toEqual([slugDate]);
    // Another route of the same first segment: the same page, the choice is kept.
    await p.goBack();
    await p.waitForURL(/\/admin\/roles$/);
    expect(await modal.isVisible()).toBe(true);
    expect(await ticked()).toEqual([slugDate]);
    // Nothing was applied.
    expect(await header.getByTestId('event-selector-button').textContent()).not.toContain('05/01/2025');
    await other.context.close();
  });
});
