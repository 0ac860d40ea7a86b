import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { MSG } from '@stadiumcam/contract';
import { albumPage } from './fixtures/album.ts';
import {
  animationsSettled,
  axeViolations,
  countByImpact,
  describeViolations,
  type AxeViolation,
} from './fixtures/axe.ts';
import { adminApi, anotherDayThisMonth, createEventOn } from './fixtures/admin-api.ts';
import { ADMIN_PASSWORD, startStack, type Stack } from './fixtures/stack.ts';
import { appendFile } from 'node:fs/promises';

/**
 * Issue 28 point 3: every console screen once, with axe-core (no critical or serious violation),
 * in both colour schemes where the scheme changes colours; and the keyboard paths an operator
 * without a mouse takes (the menu's groups, the skip link, the album's grid, the lightbox).
 */

const ADMIN = { username: 'admin', password: ADMIN_PASSWORD };
const VIEWPORT = { width: 1280, height: 800 };
const LONG = { timeout: 60_000 };

/** Colour transitions ended (a scheme switch fades some colours). */
const still = animationsSettled;

describe('accessibility (axe-core on every console screen, keyboard paths)', () => {
  let stack: Stack;
  let page: Page;
  /** The current test's critical/serious findings, gathered so one run names them all. */
  const failures: string[] = [];

  /** Counts and rules into AXE_REPORT (how docs/accessibility.md's table was measured). */
  async function report(label: string, violations: AxeViolation[]) {
    if (!process.env.AXE_REPORT) return;
    const line = {
      label,
      ...countByImpact(violations),
      rules: violations.map((v) => `${v.impact}:${v.id}:${v.nodes.length}`),
    };
    await appendFile(process.env.AXE_REPORT, JSON.stringify(line) + '\n');
  }

  /** Every rule in the scheme shown, then the contrast rule in the other scheme. */
  async function check(p: Page, label: string) {
    const scheme = await p.evaluate<string>('document.documentElement.dataset.mantineColorScheme');
    const all = await axeViolations(p);
    await report(`${label} (${scheme})`, all);
    const bad = all.filter((v) => v.impact === 'critical' || v.impact === 'serious');
    // The other scheme as Mantine sets it (the attribute its colour variables hang on): a modal
    // open on the screen covers the header's toggle.
    const other = scheme === 'dark' ? 'light' : 'dark';
    const flip = async (to: string) => {
      await p.evaluate(`document.documentElement.setAttribute('data-mantine-color-scheme', '${to}')`);
      await still(p);
    };
    await flip(other);
    const contrast = await axeViolations(p, { rules: ['color-contrast'] });
    await report(`${label} (${other}, contrast)`, contrast);
    await flip(scheme);
    const failed = [...bad, ...contrast];
    if (failed.length) failures.push(`${label}:\n${describeViolations(failed)}`);
  }

  /** Each test fails with every screen it found wanting, then starts a fresh list. */
  function expectNone() {
    const found = failures.splice(0);
    expect(found.join('\n\n')).toBe('');
  }

  async function screen(route: string, label: string, ready: Locator) {
    await page.goto(route);
    await ready.first().waitFor(LONG);
    await check(page, label);
  }

  beforeAll(async () => {
    stack = await startStack({ simulator: true });
    ({ page } = await stack.newPage({ login: ADMIN, viewport: VIEWPORT }));
  }, 300_000);
  afterAll(async () => {
    await stack?.close();
  });

  it('the pages before login', async () => {
    const { page: anon, context } = await stack.newPage({ path: '/login', viewport: VIEWPORT });
    await anon.getByRole('button', { name: 'Login' }).waitFor();
    await check(anon, 'login');
    await anon.goto('/reset_password');
    await anon.getByLabel('E-mail').waitFor();
    await check(anon, 'reset password');
    await anon.goto('/reset_password/a11y-token');
    await anon.getByRole('heading', { name: 'Confirm password reset' }).waitFor();
    await check(anon, 'reset confirm');
    await anon.goto('/no-such-screen');
    await anon.getByText(MSG.common.notFound).waitFor();
    await check(anon, 'not found');
    await anon.goto('/slideshow');
    await anon.getByText(MSG.templateParts.slideshowEmpty, { exact: true }).waitFor();
    await check(anon, 'slideshow');
    await context.close();
    expectNone();
  }, 120_000);

  it('calendar, event selector, monitor', async () => {
    // An upcoming event beside the simulator's live one: each status tints its card differently.
    await createEventOn(await adminApi(stack.url), anotherDayThisMonth(), 'Upcoming game');
    await screen('/', 'calendar', page.locator('[data-testid="event-card"][data-status="pre"]'));
    await page.getByTestId('header-event-selector').getByTestId('event-selector-button').click();
    const selector = page.getByRole('dialog', { name: 'Select an event' });
    await selector.locator('tbody tr').first().waitFor();
    await check(page, 'event selector');
    await page.keyboard.press('Escape');
    await selector.waitFor({ state: 'detached' });
    await screen('/monitor', 'monitor', page.locator('[data-testid="stream-cam1"][data-live="true"]'));
    expectNone();
  }, 240_000);

  it('album and lightbox', async () => {
    const album = albumPage(page);
    await screen('/album', 'album', album.tiles);
    await album.openLightbox();
    await album.lightbox.locator('[data-strip-id][data-active]').waitFor();
    await check(page, 'lightbox');
    await page.keyboard.press('Escape');
    await album.lightbox.waitFor({ state: 'detached' });
    expectNone();
  }, 240_000);

  it('users, roles, analytics, event users', async () => {
    await screen('/admin/users', 'users', page.getByTestId('users-table').getByText('admin', { exact: true }));
    await page.getByRole('button', { name: 'Create new user' }).click();
    const modal = page.getByRole('dialog', { name: 'Create new user' });
    await modal.getByLabel('User Name').waitFor();
    await check(page, 'user modal');
    await page.keyboard.press('Escape');
    await modal.waitFor({ state: 'detached' });
    await screen('/admin/roles', 'roles', page.getByRole('checkbox', { name: 'Photos:write', exact: true }));
    await page.goto('/analytics');
    await page.waitForURL(/\/analytics\/[^/]+$/);
    await page.getByTestId('panel-timeline').waitFor(LONG);
    await check(page, 'analytics');
    await screen('/eventUsers', 'event users', page.getByTestId('event-user-row'));
    expectNone();
  }, 240_000);

  it('template screens', async () => {
    await screen('/template/Languages', 'languages', page.getByTestId('languages-table'));
    await screen('/template/colors', 'colors', page.getByLabel('Background color', { exact: true }));
    await screen('/template/overlays', 'overlays', page.getByTestId('overlay-card'));
    await screen('/template/graphics', 'graphics', page.getByTestId('graphics-dropzone'));
    await screen('/template/share', 'share', page.getByTestId('share-active'));
    await screen('/template/seatOptions', 'seat options', page.getByTestId('seat-types'));
    await screen('/template/geofence', 'geofence', page.getByTestId('geofence-enabled'));
    await screen('/template/trivia', 'trivia', page.getByTestId('trivia-questions'));
    await screen('/template/slideshow', 'slideshow settings', page.getByTestId('slideshow-settings'));
    await screen('/template/export', 'export/import', page.getByRole('button', { name: /^Export selected/ }));
    expectNone();

    // Colours the app would paint below 4.5:1 are named, as a warning (Update Event stays enabled).
    const { page: op, context } = await stack.newPage({ login: ADMIN, path: '/template/colors', viewport: VIEWPORT });
    const bg = op.getByLabel('Background color', { exact: true });
    await bg.waitFor(LONG);
    expect(await op.getByTestId('contrast-warning').count()).toBe(0);
    await bg.fill('#ffffff');
    await bg.blur();
    const warning = op.getByTestId('contrast-warning');
    await warning.getByText(MSG.templateColors.contrastTitle).waitFor();
    await warning.getByText(MSG.templateColors.contrastPair('Main text color', 'background color', '1.0')).waitFor();
    expect(await op.getByTestId('update-event').isEnabled()).toBe(true);
    await context.close();
  }, 300_000);

  it('camera configs, mapping config, mapping tool', async () => {
    await screen('/config/camera', 'camera configs', page.getByTestId('device-cam1').getByText(/Venue simulator/));
    await screen('/config/mapping', 'mapping config', page.getByTestId('parsed-info').getByRole('cell'));
    await screen('/mapping', 'mapping tool', page.getByRole('button', { name: 'Connect' }));
    expectNone();
  }, 240_000);

  it('the keyboard reaches every menu entry: skip link first, menu groups open with Enter, a ring of at least 2 px', async () => {
    const { page: kb, context } = await stack.newPage({ login: ADMIN, viewport: VIEWPORT });
    await kb.getByTestId('event-card').first().waitFor(LONG);
    await kb.locator('body').focus();
    await kb.keyboard.press('Tab');
    const skip = kb.getByRole('link', { name: MSG.a11y.skipToMain });
    expect(await skip.evaluate((el) => el === (globalThis as any).document.activeElement)).toBe(true);
    const box = await skip.boundingBox();
    expect(box && box.y >= 0 && box.x >= 0).toBe(true);
    await kb.keyboard.press('Enter');
    expect(await kb.evaluate<string>('document.activeElement.id')).toBe('main-content');

    // Tab through the header and the menu to the Template group's button, open it, go to Colors.
    const focusedName = () =>
      kb.evaluate<string>(
        '(document.activeElement.getAttribute("aria-label") || document.activeElement.textContent || "").trim()',
      );
    const tabTo = async (name: string) => {
      // Past every control of the page before it (the Analytics heat map's sections are buttons).
      for (let i = 0; i < 300; i++) {
        await kb.keyboard.press('Tab');
        if ((await focusedName()) === name) return;
      }
      throw new Error(`Tab never reached ${name}`);
    };
    await kb.locator('body').focus();
    await tabTo('Template');
    expect(await kb.evaluate<string>('document.activeElement.tagName')).toBe('BUTTON');
    expect(await kb.evaluate<string>('document.activeElement.getAttribute("aria-expanded")')).toBe('false');
    // A ring a person can see: at least 2 px, solid.
    const ring = await kb.evaluate<{ width: number; style: string }>(
      '(() => { const s = getComputedStyle(document.activeElement); return { width: parseFloat(s.outlineWidth), style: s.outlineStyle }; })()',
    );
    expect(ring.width).toBeGreaterThanOrEqual(2);
    expect(ring.style).toBe('solid');
    await kb.keyboard.press('Enter');
    expect(await kb.evaluate<string>('document.activeElement.getAttribute("aria-expanded")')).toBe('true');
    await tabTo('Colors');
    await kb.keyboard.press('Enter');
    await kb.waitForURL(`${stack.url}/template/colors`);
    // The Admin and Config groups open the same way.
    for (const [group, entry, path] of [
      ['Admin', 'Roles', '/admin/roles'],
      ['Config', 'Camera', '/config/camera'],
    ]) {
      await kb.locator('body').focus();
      await tabTo(group);
      await kb.keyboard.press('Enter');
      await tabTo(entry);
      await kb.keyboard.press('Enter');
      await kb.waitForURL(`${stack.url}${path}`);
    }
    // A text field's ring too, not only its 1 px border.
    await kb.goto('/admin/users');
    await kb.getByRole('button', { name: 'Create new user' }).click();
    await kb.getByRole('dialog', { name: 'Create new user' }).getByLabel('User Name').focus();
    const fieldRing = await kb.evaluate<number>('parseFloat(getComputedStyle(document.activeElement).outlineWidth)');
    expect(fieldRing).toBeGreaterThanOrEqual(2);
    await context.close();
  }, 120_000);

  it('the album grid is one Tab stop with arrow keys inside; closing the lightbox gives focus back to its photo', async () => {
    const { page: kb, context } = await stack.newPage({ login: ADMIN, path: '/album', viewport: VIEWPORT });
    const album = albumPage(kb);
    await album.tiles.first().waitFor(LONG);
    await album.autoRefresh.uncheck({ force: true });
    const grid = kb.getByRole('grid', { name: MSG.a11y.albumGrid });
    // One element of the whole grid is in the Tab order.
    const inTabOrder = () =>
      grid.evaluate((g) => [...g.querySelectorAll<any>('*')].filter((el) => el.tabIndex >= 0 && !el.disabled).length);
    expect(await inTabOrder()).toBe(1);
    // At 1280 px at least four photos a row.
    const cols = Number(await grid.getAttribute('data-cols'));
    expect(cols).toBeGreaterThanOrEqual(4);

    const activeId = () => kb.evaluate<string | undefined>('document.activeElement.dataset.id');
    const ids = await album.tileIds();
    await kb.getByRole('tab', { name: /All Photos/ }).focus();
    // From the tabs, Tab reaches the toolbar's controls and then the grid's one stop.
    for (let i = 0; i < 20 && (await activeId()) !== ids[0]; i++) await kb.keyboard.press('Tab');
    expect(await activeId()).toBe(ids[0]);
    expect(await kb.evaluate<string>('document.activeElement.getAttribute("role")')).toBe('gridcell');
    await kb.keyboard.press('ArrowRight');
    expect(await activeId()).toBe(ids[1]);
    await kb.keyboard.press('ArrowDown');
    expect(await activeId()).toBe(ids[1 + cols]);
    await kb.keyboard.press('Home');
    expect(await activeId()).toBe(ids[cols]);
    await kb.keyboard.press('ArrowUp');
    expect(await activeId()).toBe(ids[0]);
    expect(await inTabOrder()).toBe(1);
    // One Tab leaves the grid for what follows it (the pagination), not 100 tiles' buttons.
    await kb.keyboard.press('ArrowRight');
    await kb.keyboard.press('Tab');
    expect(await kb.evaluate<boolean>('!document.activeElement.closest("[role=grid]")')).toBe(true);
    await kb.keyboard.press('Shift+Tab');
    expect(await activeId()).toBe(ids[1]);

    // F2 gives Tab the tile's own buttons; Escape comes back to the tile.
    await kb.keyboard.press('F2');
    await expect
      .poll(() => kb.evaluate<string>('document.activeElement.getAttribute("aria-label")'))
      .toMatch(/^Open photo/);
    await kb.keyboard.press('Tab');
    expect(await kb.evaluate<string>('document.activeElement.getAttribute("aria-label")')).toBe('Select photo');
    await kb.keyboard.press('Escape');
    expect(await activeId()).toBe(ids[1]);

    // Enter opens the photo; Escape closes the lightbox and the photo's tile has focus again.
    await kb.keyboard.press('Enter');
    await album.lightbox.waitFor();
    expect(await kb.getByRole('dialog', { name: 'Photo viewer' }).count()).toBe(1);
    await kb.keyboard.press('Escape');
    await album.lightbox.waitFor({ state: 'detached' });
    await expect.poll(activeId).toBe(ids[1]);
    // After stepping to the next photo in the lightbox, focus comes back to that photo's tile.
    await kb.keyboard.press('Enter');
    await album.lightbox.waitFor();
    await album.step('ArrowRight');
    await kb.keyboard.press('Escape');
    await album.lightbox.waitFor({ state: 'detached' });
    await expect.poll(activeId).toBe(ids[2]);
    await context.close();
  }, 120_000);
});
