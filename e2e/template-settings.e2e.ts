import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG, P } from '@stadiumcam/contract';
import { ADMIN_PASSWORD, startStack, type Stack } from './fixtures/stack.ts';
import { albumPage } from './fixtures/album.ts';
import { newFan } from './fixtures/fans.ts';
import { makePhoto } from '../apps/server/src/test/factories.ts';

const admin = { username: 'admin', password: ADMIN_PASSWORD };

/** The master template's stored slideshow settings, as the server has them. */
async function templateSlideshow(page: Page): Promise<Record<string, unknown>> {
  return page.evaluate(async () => {
    const res = await fetch('/api/event/stadiumcam');
    return ((await res.json()) as { slideshow?: Record<string, unknown> }).slideshow ?? {};
  });
}

/** A form field's input by its label (Mantine labels carry a required asterisk). */
const field = (page: Page, label: string) => page.locator('input').and(page.getByLabel(label));

async function choose(page: Page, label: string, option: string) {
  await field(page, label).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Slideshow settings and Export/Import (spec 2 Slideshow, Export/Import, §5, §9). */
describe('template: slideshow settings, export and import', () => {
  let stack: Stack;
  let dir: string;
  beforeAll(async () => {
    // No events: the master template is the selection.
    stack = await startStack();
    dir = await mkdtemp(path.join(os.tmpdir(), 'stadiumcam-amp-'));
  });
  afterAll(async () => {
    await stack?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('saves the four slideshow settings with their option lists, and links to /slideshow', async () => {
    const { page, context } = await stack.newPage({ login: admin, path: '/template/slideshow' });
    const form = page.getByTestId('slideshow-settings');
    await form.waitFor();
    expect(await field(page, 'Play interval').inputValue()).toBe('5 s');
    expect(await field(page, 'Slide duration').inputValue()).toBe('1000 ms');
    expect(await field(page, 'Transition').inputValue()).toBe('ease-in-out');
    await field(page, 'Play interval').click();
    expect(await page.getByRole('option').allTextContents()).toEqual(
      Array.from({ length: 10 }, (_, i) => `${i + 1} s`),
    );
    await page.getByRole('option', { name: '3 s', exact: true }).click();
    await field(page, 'Slide duration').click();
    expect(await page.getByRole('option').allTextContents()).toEqual([
      '200 ms',
      '400 ms',
      '600 ms',
      '800 ms',
      '1000 ms',
    ]);
    await page.getByRole('option', { name: '400 ms', exact: true }).click();
    await field(page, 'Transition').click();
    expect(await page.getByRole('option').allTextContents()).toEqual([
      'ease',
      'linear',
      'ease-in',
      'ease-out',
      'ease-in-out',
    ]);
    await page.getByRole('option', { name: 'linear', exact: true }).click();
    expect(await page.getByTestId('slideshow-link').getAttribute('href')).toBe('/slideshow');
    await stack.screenshot(page, 'template-slideshow-1280');

    await page.getByTestId('update-event').click();
    await page.getByText(MSG.template.eventSuccessfullyUpdated).waitFor();
    expect(await templateSlideshow(page)).toMatchObject({
      transitionTime: 3000,
      transitionDuration: 400,
      animation: 'linear',
    });
    await context.close();
  });

  it('exports the selection as an .amp and imports it back; refuses a file that is not one', async () => {
    const { page, context } = await stack.newPage({ login: admin, path: '/template/export' });
    await page.getByRole('button', { name: /^Export selected/ }).waitFor();
    // Export options: trivia, geofence and overlays are exported unless unticked (spec 2 §3).
    for (const option of ['Trivia', 'Geofence', 'Overlays'])
      expect(await page.getByRole('checkbox', { name: option, exact: true }).isChecked()).toBe(true);
    // Without a live event, every event may be exported.
    expect(await page.getByRole('button', { name: 'Export all events' }).isDisabled()).toBe(true); // no dated events
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export selected (1)' }).click();
    const amp = path.join(dir, 'template.amp');
    await (await downloading).saveAs(amp);
    expect((await readFile(amp)).subarray(0, 2).toString()).toBe('PK');
    await stack.screenshot(page, 'template-export-1280');

    // Change the template, then import the file: the exported settings come back.
    await page.goto('/template/slideshow');
    await choose(page, 'Play interval', '7 s');
    await page.getByTestId('update-event').click();
    await page.getByText(MSG.template.eventSuccessfullyUpdated).waitFor();
    expect(await templateSlideshow(page)).toMatchObject({ transitionTime: 7000 });

    await page.goto('/template/export');
    const choosing = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Import Event' }).click();
    await (await choosing).setFiles(amp);
    await page.getByText(MSG.template.eventSuccessfullyUpdated).waitFor();
    expect(await templateSlideshow(page)).toMatchObject({ transitionTime: 3000, animation: 'linear' });

    const text = path.join(dir, 'notes.txt');
    await writeFile(text, 'not an archive');
    const again = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Import Event' }).click();
    await (await again).setFiles(text);
    await page.getByTestId('error-modal').getByText(MSG.templateParts.invalidAmp).waitFor();
    expect(await templateSlideshow(page)).toMatchObject({ transitionTime: 3000 });
    await context.close();
  });

  it('slideshow: the save success stays about 5 s (not the 1.5 s of other screens)', async () => {
    const { page, context } = await stack.newPage({ login: admin, path: '/template/slideshow' });
    await page.getByTestId('slideshow-settings').waitFor();
    await choose(page, 'Play interval', '4 s');
    await page.getByTestId('update-event').click();
    const success = page.getByText(MSG.template.eventSuccessfullyUpdated);
    await success.waitFor();
    const shownAt = Date.now();
    await success.waitFor({ state: 'hidden', timeout: 15_000 });
    const shownFor = Date.now() - shownAt;
    // Generous bounds around 5 s: well past the 1.5 s popup, and it does go.
    expect(shownFor).toBeGreaterThan(3_000);
    expect(shownFor).toBeLessThan(9_000);
    await context.close();
  });

  it('share: with the master template selected, its target in the save modal is ticked and locked', async () => {
    const { page, context } = await stack.newPage({ login: admin, path: '/template/share' });
    await page.getByTestId('share-active').waitFor();
    await page.getByTestId('update-event').click();
    const modal = page.getByRole('dialog', { name: MSG.templateParts.saveChangesTitle });
    const target = modal.getByRole('checkbox', { name: 'Master Template', exact: true });
    await target.waitFor();
    expect(await target.isChecked()).toBe(true);
    expect(await target.isDisabled()).toBe(true);
    expect(await modal.getByRole('checkbox').count()).toBe(1); // no second 'Master Template' option
    expect(await modal.getByRole('button', { name: 'Save' }).isDisabled()).toBe(false);
    await modal.getByRole('button', { name: 'Save' }).click();
    await page.getByText(MSG.template.eventSuccessfullyUpdated).waitFor();
    await context.close();
  });
});

/* ---------- Overlays, share, seat options, geofence, trivia and their effect in the app ---------- */

/** A 2160×2160 PNG (8-bit RGBA unless told otherwise) in one colour: a few KB. */
async function overlayPng(colour: string, opts: { bits16?: boolean; palette?: boolean; size?: number } = {}) {
  const size = opts.size ?? 2160;
  let img = sharp({ create: { width: size, height: size, channels: 4, background: colour } });
  if (opts.bits16) img = img.toColourspace('rgb16');
  return img.png(opts.palette ? { palette: true } : {}).toBuffer();
}

/** A call of the console's API from the operator's page (its cookie, its origin). */
async function call(page: Page, method: string, url: string, body?: unknown) {
  return page.evaluate(
    async ({ method, url, body }) => {
      const res = await fetch(url, {
        method,
        headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json().catch(() => null)) as any };
    },
    { method, url, body },
  );
}

const current = async (page: Page) => (await call(page, 'GET', '/api/events/stadiumcam')).body;

describe('template: overlays, share, seat options, geofence, trivia, and what a fan sees', () => {
  let stack: Stack;
  let dir: string;
  let op: { page: Page; context: import('playwright-core').BrowserContext };
  beforeAll(async () => {
    // A live event of today and one camera whose turns are long: a queued fan stays queued.
    stack = await startStack({ simulator: { camerasPerHost: 1, attendeeRate: 0, turnMs: 600_000, fps: 2 } });
    dir = await mkdtemp(path.join(os.tmpdir(), 'stadiumcam-parts-'));
    op = await stack.newPage({ login: admin });
  });
  afterAll(async () => {
    await op?.context.close();
    await stack?.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** A fan's phone with a server-issued id (the app keeps its token in localStorage); `_name` reads the test. */
  async function fan(_name: string, geo?: { latitude: number; longitude: number }) {
    const id = await newFan(stack.url);
    const f = await stack.newPage({ path: '/app/', viewport: { width: 390, height: 844 }, fan: id });
    if (geo) {
      await f.context.grantPermissions(['geolocation'], { origin: stack.url });
      await f.context.setGeolocation(geo);
    }
    return { ...f, userId: id.userId, fanToken: id.fanToken };
  }
  /** A queue join from the fan's phone, with its token, as the seat screen sends it. */
  const joinFromPhone = (f: { page: Page; fanToken: string }, body: Record<string, unknown>) =>
    f.page.evaluate(
      async ({ b, token }) => {
        const res = await fetch('/api/public/queue', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Fan-Token': token },
          body: JSON.stringify(b),
        });
        return { status: res.status, body: await res.json() };
      },
      { b: body, token: f.fanToken },
    );

  /** A photo of the fan in the current event (as a camera host would have uploaded it). */
  async function photoOf(userId: string, slugDate: string, section: string) {
    const id = randomUUID();
    const jpeg = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#1d4e89' } })
      .jpeg()
      .toBuffer();
    const url = await stack.app.deps.media.put(`${slugDate}/${id}/raw.jpg`, jpeg);
    await makePhoto(stack.app.deps.db, {
      id,
      slug: slugDate.replace(/-\d{4}-\d{2}-\d{2}$/, ''),
      slugDate,
      userId,
      camera: 'cam1',
      section,
      row: 'A',
      seat: '1',
      thumbUri: url,
      smallUri: url,
      rawCroppedUri: url,
      sharedUri: url,
    });
    return id;
  }

  async function uploadVia(page: Page, trigger: string, file: string) {
    const choosing = page.waitForEvent('filechooser');
    await page.getByTestId(trigger).first().click();
    await (await choosing).setFiles(file);
  }

  it('overlays: refuses 16-bit, palette and wrong-size files; add-slots and layout; reorder, disable, sections, delete; the app offers them by section, in order', async () => {
    const { page } = op;
    await page.goto('/template/overlays');
    await page.getByTestId('overlay-list').waitFor();
    // The simulated venue brought three overlays of its own.
    const cards = page.getByTestId('overlay-card');
    await expect.poll(() => cards.count()).toBe(3);
    const n0 = await cards.count();
    expect(await page.getByTestId('overlay-slot').count()).toBe(1);
    const bad: [string, Buffer, string][] = [
      ['16.png', await overlayPng('#ff0000', { bits16: true }), MSG.templateParts.overlay8Bit],
      ['palette.png', await overlayPng('#ff0000', { palette: true }), MSG.templateParts.overlay8Bit],
      ['small.png', await overlayPng('#ff0000', { size: 1080 }), MSG.templateParts.overlaySize],
    ];
    for (const [name, bytes, text] of bad) {
      const file = path.join(dir, name);
      await writeFile(file, bytes);
      await uploadVia(page, 'overlay-add', file);
      // 'Failed to update overlays' with the reason.
      const modal = page.getByRole('dialog', { name: MSG.templateParts.overlaysUpdateFailed });
      await modal.getByText(text).waitFor();
      await modal.getByRole('button', { name: 'Close' }).click();
      await modal.waitFor({ state: 'hidden' });
    }
    expect(await cards.count()).toBe(n0);
    expect(await page.getByTestId('overlay-list').getAttribute('data-layout')).toBe('compact');

    const colours = ['#e03131', '#2f9e44', '#1971c2', '#f08c00'];
    for (const [i, c] of colours.entries()) {
      const file = path.join(dir, `ok${i}.png`);
      await writeFile(file, await overlayPng(c));
      await uploadVia(page, i % 2 ? 'overlay-add' : 'overlay-slot', file);
      const n = n0 + i + 1;
      await expect.poll(() => cards.count(), { timeout: 30_000 }).toBe(n);
      expect(await page.getByTestId('overlay-slot').count()).toBe(n < 7 ? 1 : 0);
      // Above 3 the row is full width; more than 5 wraps (spec 2 §9).
      expect(await page.getByTestId('overlay-list').getAttribute('data-layout')).toBe(n > 5 ? 'wrap' : 'full');
    }
    // Seven: Add is disabled and no add-slot is left.
    expect(await page.getByTestId('overlay-add').isDisabled()).toBe(true);
    await stack.screenshot(page, 'template-overlays-1280');
    const keys = async () =>
      page.getByTestId('overlay-card').evaluateAll((els) => els.map((e) => e.getAttribute('data-key')!));
    const before = await keys();

    // Drag the second card onto the first: they swap.
    const grip = (i: number) =>
      page
        .getByTestId('overlay-card')
        .nth(i)
        .getByRole('button', { name: /^Drag overlay/ });
    // Tall enough for both rows: nothing scrolls under the pointer while it drags.
    await page.setViewportSize({ width: 1280, height: 1400 });
    const from = (await grip(1).boundingBox())!;
    const to = (await grip(0).boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + 10, from.y + 10, { steps: 4 });
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 12 });
    await page.mouse.up();
    await expect.poll(keys).toEqual([before[1], before[0], ...before.slice(2)]);
    await page.setViewportSize({ width: 1280, height: 800 });
    const order = await keys();

    // Disable the 2nd, restrict the 3rd to section 102, delete the 4th.
    // Named by the file name, without the folder and the .png (issue 28 point 5).
    const label = (k: string) => path.posix.basename(k, '.png');
    await page.getByRole('switch', { name: `Enable overlay ${label(order[1])}` }).click({ force: true });
    await page.getByRole('button', { name: `Sections of ${label(order[2])}` }).click();
    const sections = page.getByTestId('overlay-sections-modal');
    await sections.getByLabel('All sections').uncheck();
    await sections.getByText(MSG.templateParts.overlaySectionsRequired).waitFor();
    expect(await sections.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await sections.getByPlaceholder('Choose sections').click();
    await page.getByRole('option', { name: '102', exact: true }).click();
    await page.keyboard.press('Tab'); // closes the list
    await sections.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: `Delete ${label(order[3])}` }).click();
    await page.getByRole('dialog').getByText(MSG.templateParts.deleteImageConfirm).waitFor();
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => cards.count()).toBe(6);
    await page.getByTestId('update-event').click();
    await page.getByText(MSG.template.eventSuccessfullyUpdated).waitFor();

    const saved = (await current(page)).overlays as {
      storageKey: string;
      disabled: boolean;
      deleted: boolean;
      sections: string[];
    }[];
    expect(saved.map((o) => o.storageKey)).toEqual([...order.filter((_, i) => i !== 3), order[3]]);
    expect(saved.find((o) => o.storageKey === order[1])?.disabled).toBe(true);
    expect(saved.find((o) => o.storageKey === order[2])?.sections).toEqual(['102']);
    expect(saved.find((o) => o.storageKey === order[3])?.deleted).toBe(true);

    // The fan's phone: a photo in section 101 is offered the enabled overlays for every section,
    // in order; one in 102 also the 102-only overlay.
    const slugDate = (await current(page)).slugDate as string;
    const f = await fan('fan-overlays');
    const in101 = await photoOf(f.userId, slugDate, '101');
    const in102 = await photoOf(f.userId, slugDate, '102');
    const offered = async (id: string) => {
      await f.page.goto(`/app/#/photo/${id}`);
      await f.page.locator('[data-screen="photo"] .overlays').waitFor();
      return f.page
        .locator('.overlays button.overlay:not(.none)')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-overlay')));
    };
    expect(await offered(in101)).toEqual([order[0], order[4], order[5], order[6]]);
    expect(await offered(in102)).toEqual([order[0], order[2], order[4], order[5], order[6]]);
    // A fan hears each frame by its place in the row ('Frame 2'), not by its file name.
    await f.page.getByRole('button', { name: 'Frame 2', exact: true }).click();
    await f.page.locator(`.overlays button.overlay.active[data-overlay="${order[2]}"]`).waitFor();
    await stack.screenshot(f.page, 'attendee-overlays');
    await f.context.close();
  });

  it('overlays: an overlay downloads as its PNG; Add is disabled while an upload is under way', async () => {
    const { page } = op;
    await page.goto('/template/overlays');
    const cards = page.getByTestId('overlay-card');
    await cards.first().waitFor();
    const n = await cards.count();
    const key = (await cards.first().getAttribute('data-key'))!;
    const dl = page.waitForEvent('download');
    await cards
      .first()
      .getByRole('link', { name: `Download ${path.posix.basename(key, '.png')}` })
      .click();
    const meta = await sharp(await readFile(await (await dl).path())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 2160, 2160]);

    expect(n).toBeLessThan(7);
    {
      // Hold the upload on its way to the server: Add stays disabled until it is answered.
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let seen!: () => void;
      const arrived = new Promise<void>((r) => (seen = r));
      await page.route('**/overlays/upload**', async (r) => {
        seen();
        await held;
        await r.continue();
      });
      const file = path.join(dir, 'held.png');
      await writeFile(file, await overlayPng('#862e9c'));
      await uploadVia(page, 'overlay-add', file);
      await arrived;
      expect(await page.getByTestId('overlay-add').isDisabled()).toBe(true);
      release();
      await expect.poll(() => cards.count(), { timeout: 30_000 }).toBe(n + 1);
      await expect.poll(() => page.getByTestId('overlay-add').isDisabled()).toBe(n + 1 >= 7);
      await page.unrouteAll({ behavior: 'wait' });
    }
    // Not saved: leaving the page drops the uploaded overlay from the list.
  });

  it("overlays: a refusal from the server (an 8th while a delete is unsaved) reads 'Failed to update overlays' with its text; the album's overlay filter names them by their file names", async () => {
    const { page } = op;
    await page.goto('/template/overlays');
    const cards = page.getByTestId('overlay-card');
    await cards.first().waitFor();
    await expect.poll(() => cards.count(), { timeout: 10_000 }).toBe(6);
    // Seven saved.
    const seventh = path.join(dir, 'seventh.png');
    await writeFile(seventh, await overlayPng('#0ca678'));
    await uploadVia(page, 'overlay-add', seventh);
    await expect.poll(() => cards.count(), { timeout: 30_000 }).toBe(7);
    await page.getByTestId('update-event').click();
    await page.getByText(MSG.template.eventSuccessfullyUpdated).waitFor();
    type Stored = { storageKey: string; disabled: boolean; deleted: boolean };
    const stored = async () => (await current(page)).overlays as Stored[];
    const saved = await stored();
    expect(saved.filter((o) => !o.deleted)).toHaveLength(7);

    // Delete one on screen (not saved): six shown, Add is enabled, and the console's own checks
    // pass; the server still counts the seven saved ones and refuses with its own text.
    const last = (await cards.last().getAttribute('data-key'))!;
    await page.getByRole('button', { name: `Delete ${path.posix.basename(last, '.png')}` }).click();
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => cards.count()).toBe(6);
    expect(await page.getByTestId('overlay-add').isDisabled()).toBe(false);
    const eighth = path.join(dir, 'eighth.png');
    await writeFile(eighth, await overlayPng('#5c940d'));
    const answered = page.waitForResponse((r) => r.url().includes('/overlays/upload'));
    await uploadVia(page, 'overlay-add', eighth);
    const res = await answered;
    expect([res.status(), await res.json()]).toEqual([422, { error: MSG.templateParts.overlaysMax }]);
    const modal = page.getByRole('dialog', { name: MSG.templateParts.overlaysUpdateFailed });
    await modal.getByText(MSG.templateParts.overlaysMax, { exact: true }).waitFor();
    await modal.getByRole('button', { name: 'Close' }).click();
    await modal.waitFor({ state: 'hidden' });
    expect(await cards.count()).toBe(6);
    expect(await stored()).toEqual(saved);

    // The album's overlay filter: the enabled overlays by their file names (spec 2 §4 said the
    // last 12 characters of the key; DESIGN §6 words for people), in their order.
    const enabled = saved.filter((o) => !o.disabled && !o.deleted).map((o) => o.storageKey);
    expect(enabled.length).toBe(6);
    await page.goto('/album');
    await albumPage(page).filter('Overlay').click();
    const options = page.getByRole('option');
    await expect.poll(() => options.count(), { timeout: 15_000 }).toBe(enabled.length);
    const names = enabled.map((k) => path.posix.basename(k, '.png'));
    expect(await options.allTextContents()).toEqual(names);
    // Whole names, never a key's folder or a name cut mid-word.
    expect(names.every((n) => n.length > 0 && !n.includes('/') && !n.endsWith('.png'))).toBe(true);
    await page.keyboard.press('Escape');
  });

  it('share: 0 or 5 active refused with the spec texts; drag into the ranked list; the target modal; the app shows exactly those buttons in order', async () => {
    const { page } = op;
    await page.goto('/template/share');
    const active = page.getByTestId('share-active');
    await active.waitFor();
    const names = (list: string) =>
      page.getByTestId(`share-${list}-item`).evaluateAll((els) => els.map((e) => e.querySelector('p')!.textContent));
    // Deactivate everything: 'One option need to be active at minimum'.
    // Until none is left: the list may still be settling from the page's load.
    await expect
      .poll(
        async () => {
          const left = await names('active');
          for (const n of left) await page.getByRole('button', { name: `Deactivate ${n}`, exact: true }).click();
          return left.length;
        },
        { timeout: 20_000 },
      )
      .toBe(0);
    await page.getByTestId('share-problem').getByText(MSG.templateParts.shareMin).waitFor();
    await page.getByTestId('update-event').click();
    const oops = page.getByRole('dialog', { name: MSG.common.oopsTitle });
    await oops.getByText(MSG.templateParts.shareMin).waitFor();
    await oops.getByRole('button', { name: 'Close' }).click();
    await oops.waitFor({ state: 'hidden' });
    for (const n of await names('inactive'))
      await page.getByRole('button', { name: `Activate ${n}`, exact: true }).click();
    await page.getByTestId('share-problem').getByText(MSG.templateParts.shareMax).waitFor();
    for (const n of ['Print', 'E-mail', 'Share', 'Download'])
      await page.getByRole('button', { name: `Deactivate ${n}`, exact: true }).click();
    expect(await names('active')).toEqual(['Share level 2']);

    // Drag Download from the inactive list onto the ranked list's first item, then E-mail below.
    const drag = async (name: string, target: string) => {
      const from = (await page.getByRole('button', { name: `Drag ${name}`, exact: true }).boundingBox())!;
      const to = (await page.getByTestId('share-active-item').filter({ hasText: target }).boundingBox())!;
      await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
      await page.mouse.down();
      await page.mouse.move(from.x + 12, from.y + 8, { steps: 4 });
      await page.mouse.move(to.x + 40, to.y + 4, { steps: 15 });
      await page.mouse.up();
    };
    await drag('download', 'Share level 2');
    await expect.poll(() => names('active')).toEqual(['Download', 'Share level 2']);
    // A click right after a drop may still go to the drag sensor: click until it took.
    const activateEmail = page.getByRole('button', { name: 'Activate E-mail', exact: true });
    await expect
      .poll(async () => {
        if (await activateEmail.count()) await activateEmail.click();
        return names('active');
      })
      .toEqual(['Download', 'Share level 2', 'E-mail']);
    await stack.screenshot(page, 'template-share-1280');

    await page.getByTestId('update-event').click();
    const modal = page.getByRole('dialog', { name: MSG.templateParts.saveChangesTitle });
    await modal.waitFor();
    await modal.getByRole('checkbox', { name: /^Current event/ }).uncheck();
    await modal.getByText(MSG.templateParts.chooseTarget).waitFor();
    expect(await modal.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await modal.getByRole('checkbox', { name: /^Current event/ }).check();
    await modal.getByRole('button', { name: 'Save' }).click();
    await page.getByText(MSG.template.eventSuccessfullyUpdated).waitFor();
    const event = await current(page);
    expect(
      (event.share as { platform: string; enabled: boolean }[]).filter((s) => s.enabled).map((s) => s.platform),
    ).toEqual(['download', 'share level 2', 'email']);
    // The API refuses what the screen would not send.
    const five = ['print', 'share', 'share level 2', 'download', 'email'].map((platform) => ({
      platform,
      enabled: true,
    }));
    expect((await call(page, 'PATCH', '/api/events/share', { eventIds: [event._id], share: five })).status).toBe(400);
    const unknown = [{ platform: 'fax', enabled: true }];
    expect((await call(page, 'PATCH', '/api/events/share', { eventIds: [event._id], share: unknown })).status).toBe(
      400,
    );

    const f = await fan('fan-share');
    const id = await photoOf(f.userId, event.slugDate, '101');
    await f.page.goto(`/app/#/share/${id}`);
    await f.page.locator('.share-buttons button').first().waitFor();
    expect(await f.page.locator('.share-buttons button').allTextContents()).toEqual([
      'Download',
      'More apps',
      'E-mail',
    ]);
    await f.context.close();
  });

  it('seat options: the cascading blocked-seat modal with every text; the app refuses the blocked seat, and so does the server', async () => {
    const { page } = op;
    await page.goto('/template/seatOptions');
    await page.getByTestId('seat-types').waitFor();
    // The simulated venue has sections only: the other types are off by the venue and locked.
    expect(await page.getByRole('switch', { name: 'Enable Section' }).isChecked()).toBe(true);
    expect(await page.getByRole('switch', { name: 'Enable Box' }).isDisabled()).toBe(true);
    await page.getByTestId('blocked-seats').getByText(MSG.templateParts.noBlockedSeats).waitFor();

    await page.getByRole('button', { name: 'Add blocked seats' }).click();
    const modal = page.getByTestId('block-seat-modal');
    const err = modal.getByTestId('block-seat-error');
    const pick = async (label: string, option?: string) => {
      await modal
        .locator('input')
        .and(page.getByLabel(label, { exact: true }))
        .click();
      const o = option ? page.getByRole('option', { name: option, exact: true }) : page.getByRole('option').first();
      await o.click();
    };
    await modal.getByRole('button', { name: 'Add' }).click();
    expect(await err.textContent()).toBe(MSG.templateParts.selectSeatType);
    await pick('Seat type', 'Section');
    await modal.getByRole('button', { name: 'Add' }).click();
    expect(await err.textContent()).toBe(MSG.templateParts.selectSection);
    await pick('Section', '101');
    await modal.getByRole('button', { name: 'Add' }).click();
    expect(await err.textContent()).toBe(MSG.templateParts.selectRow);
    await pick('Row', 'C');
    await modal.getByRole('button', { name: 'Add' }).click();
    expect(await err.textContent()).toBe(MSG.templateParts.selectSeat);
    await pick('Seat');
    const seat = await modal
      .locator('input')
      .and(page.getByLabel('Seat', { exact: true }))
      .inputValue();
    await modal.getByRole('button', { name: 'Add' }).click();
    await modal.waitFor({ state: 'detached' });
    // The same seat again: the duplicate text.
    await page.getByRole('button', { name: 'Add blocked seats' }).click();
    await pick('Seat type', 'Section');
    await pick('Section', '101');
    await pick('Row', 'C');
    await pick('Seat', seat);
    await modal.getByRole('button', { name: 'Add' }).click();
    expect(await err.textContent()).toBe(MSG.templateParts.seatAlreadyBlocked);
    await modal.getByRole('button', { name: 'Cancel' }).click();
    await stack.screenshot(page, 'template-seat-options-1280');
    await page.getByTestId('update-event').click();
    await page.getByText(MSG.template.eventSuccessfullyUpdated).waitFor();
    const event = await current(page);
    expect(event.blockedSeats).toEqual([{ seatType: 'section', section: '101', row: 'C', seat }]);
    // A seat that does not exist is refused by the server, and nothing changes.
    const ghost = { seatType: 'section', section: '101', row: 'C', seat: '999' };
    const refused = await call(page, 'PATCH', '/api/events/seatOptions', {
      eventIds: [event._id],
      seatType: event.seatType,
      blockedSeats: [ghost],
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toContain(MSG.templateParts.unknownSeat);
    expect((await current(page)).blockedSeats).toHaveLength(1);

    const f = await fan('fan-blocked');
    await f.page.getByRole('button', { name: 'Start' }).click();
    await f.page.locator('input[name="section"]').fill('101');
    await f.page.locator('input[name="row"]').fill('c');
    await f.page.locator('input[name="seat"]').fill(seat);
    await f.page.getByRole('button', { name: 'Join the queue' }).click();
    await f.page.getByRole('alert').getByText('This seat cannot use the camera, please try a different one.').waitFor();
    const server = await joinFromPhone(f, {
      slugDate: event.slugDate,
      userId: f.userId,
      seat: { seatType: 'section', section: '101', row: 'C', seat },
    });
    expect(server).toEqual({ status: 422, body: { error: MSG.templateParts.seatBlocked } });
    await f.context.close();
  });

  it('seat options: drag reorder, grid or list, disabling forces it off, a venue-off type is locked, the modal offers only enabled or forced-off types', async () => {
    const { page } = op;
    await page.goto('/template/seatOptions');
    const list = page.getByTestId('seat-types');
    await list.waitFor();
    const order = () => list.locator('[data-type]').evaluateAll((els) => els.map((e) => e.getAttribute('data-type')!));
    const offered = async () => {
      await page.getByRole('button', { name: 'Add blocked seats' }).click();
      const modal = page.getByTestId('block-seat-modal');
      await modal
        .locator('input')
        .and(page.getByLabel('Seat type', { exact: true }))
        .click();
      const names = await page.getByRole('option').allTextContents();
      await page.keyboard.press('Escape');
      await modal.getByRole('button', { name: 'Cancel' }).click();
      await modal.waitFor({ state: 'detached' });
      return names;
    };
    // Box is off by the venue (disabled, not forced): its switch cannot be toggled.
    const box = page.getByRole('switch', { name: 'Enable Box' });
    expect(await box.isDisabled()).toBe(true);
    await box.click({ force: true });
    expect(await box.isChecked()).toBe(false);
    expect(await offered()).toEqual(['Section']);

    // Drag the second card onto the first: they swap.
    const before = await order();
    const grip = (type: string) => page.getByRole('button', { name: `Drag ${type}`, exact: true });
    await page.setViewportSize({ width: 1280, height: 1400 });
    const from = (await grip(before[1]).boundingBox())!;
    const to = (await grip(before[0]).boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + 5, from.y - 5, { steps: 4 });
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2 - 4, { steps: 12 });
    await page.mouse.up();
    await expect.poll(order).toEqual([before[1], before[0], ...before.slice(2)]);
    await page.setViewportSize({ width: 1280, height: 800 });

    // List mode and disabled for Section: stored forced off; the modal still offers it.
    await page.getByRole('radiogroup', { name: 'Mode of Section' }).getByText('List', { exact: true }).click();
    await page.getByRole('switch', { name: 'Enable Section' }).click({ force: true });
    expect(await page.getByRole('switch', { name: 'Enable Section' }).isChecked()).toBe(false);
    expect(await page.getByRole('switch', { name: 'Enable Section' }).isDisabled()).toBe(false);
    expect(await offered()).toEqual(['Section']);
    await page.getByTestId('update-event').click();
    await page.getByText(MSG.template.eventSuccessfullyUpdated).waitFor();
    type Opt = { type: string; enabled: boolean; forcedDisable: boolean; mode: string };
    const saved = (await current(page)).seatType as Opt[];
    expect(saved.map((o) => o.type)).toEqual([before[1], before[0], ...before.slice(2)]);
    expect(saved.find((o) => o.type === 'section')).toMatchObject({
      enabled: false,
      forcedDisable: true,
      mode: 'list',
    });
    expect(saved.find((o) => o.type === 'box')).toMatchObject({ enabled: false, forcedDisable: false });

    // Back on, in grid mode (fans of the later tests pick a section), from the stored state.
    await page.reload();
    await list.waitFor();
    expect(await page.getByRole('switch', { name: 'Enable Section' }).isChecked()).toBe(false);
    expect(await order()).toEqual([before[1], before[0], ...before.slice(2)]);
    await page.getByRole('switch', { name: 'Enable Section' }).click({ force: true });
    expect(await page.getByRole('switch', { name: 'Enable Section' }).isChecked()).toBe(true);
    await page.getByRole('radiogroup', { name: 'Mode of Section' }).getByText('Grid', { exact: true }).click();
    await page.getByTestId('update-event').click();
    await page.getByText(MSG.template.eventSuccessfullyUpdated).first().waitFor();
    await expect
      .poll(async () => ((await current(page)).seatType as Opt[]).find((o) => o.type === 'section'))
      .toMatchObject({ enabled: true, forcedDisable: false, mode: 'grid' });
  });

  it('trivia: required fields, CSV import errors (type, columns, row + 2), export; enabled', async () => {
    const { page } = op;
    await page.goto('/template/trivia');
    const table = page.getByTestId('trivia-questions');
    await table.getByText(MSG.templateParts.triviaNoQuestions).waitFor();
    await page.getByRole('button', { name: 'Add new', exact: true }).click();
    const form = page.getByTestId('question-form');
    await form.getByRole('button', { name: 'Save' }).click();
    expect(await form.getByText(MSG.templateParts.fieldRequired).count()).toBe(4);
    await form.getByLabel('Question').fill('Which team won the 1990 cup?');
    await form.getByLabel('Answer 1').fill('The home team');
    await form.getByLabel('Answer 2').fill('The visitors');
    await form.locator('input').and(page.getByLabel('Correct answer')).click();
    await page.getByRole('option', { name: '1', exact: true }).click();
    await form.getByRole('button', { name: 'Save' }).click();
    await table.getByText('Which team won the 1990 cup?').waitFor();

    const csv = async (name: string, text: string) => {
      const file = path.join(dir, name);
      await writeFile(file, text);
      const choosing = page.waitForEvent('filechooser');
      await page.getByRole('button', { name: 'Add from CSV' }).click();
      await (await choosing).setFiles(file);
    };
    const modalSays = async (text: string) => {
      const m = page.getByRole('dialog', { name: MSG.common.oopsTitle });
      await m.getByText(text).waitFor();
      await m.getByRole('button', { name: 'Close' }).click();
      await m.waitFor({ state: 'hidden' });
    };
    await csv('questions.txt', 'question,answer1,answer2,correctAnswer\nA?,x,y,1\n');
    await modalSays(MSG.templateParts.triviaWrongFileType);
    await csv('nocol.csv', 'question,answer1,correctAnswer\nA?,x,1\n');
    await modalSays(MSG.templateParts.triviaCsvColumns);
    await csv('bad.csv', 'question,answer1,answer2,correctAnswer\nGood?,x,y,2\n\nBad?,x,y,3\n');
    await modalSays('Row 3: correctAnswer: This field is required');
    expect(await table.getByText('Good?').count()).toBe(0); // nothing saved from a file with errors
    await csv(
      'ok.csv',
      'question,answer1,answer2,correctAnswer\n\nHow many seats?,"40,000",60000,1\n\nLoudest  fans?,North,South,2\n',
    );
    await table.getByText('How many seats?').waitFor();
    await table.getByText('Loudest fans?').waitFor(); // _id and text from the question, spaces collapsed
    // The stored _id is the question text with its spaces collapsed (triviaId, spec 2 §3).
    const listed = await call(page, 'GET', `/api/events/${(await current(page)).slugDate}/trivia/questions/english`);
    expect(
      (listed.body as { _id: string; question: string }[])
        .filter((q) => q.question.startsWith('Loudest') || q.question.startsWith('How many'))
        .map((q) => [q._id, q.question]),
    ).toEqual([
      ['How many seats?', 'How many seats?'],
      ['Loudest fans?', 'Loudest  fans?'],
    ]);

    const dl = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Export to CSV' }).click();
    const exported = await readFile(await (await dl).path(), 'utf8');
    expect(exported.split('\r\n')[0]).toBe('question,answer1,answer2,correctAnswer');
    expect(exported).toContain('"How many seats?","40,000","60000","1"');

    await page.getByRole('checkbox', { name: 'Select How many seats?' }).check();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => table.getByText('How many seats?').count()).toBe(0);

    // The switch says Disabled, then Enabled (spec 2 §4).
    await page.getByText(MSG.templateParts.triviaDisabled, { exact: true }).waitFor();
    await page.getByTestId('trivia-enabled').check();
    await page.getByText(MSG.templateParts.triviaEnabled, { exact: true }).waitFor();
    await stack.screenshot(page, 'template-trivia-1280');
    await page.getByTestId('update-event').click();
    await page.getByText(MSG.template.eventSuccessfullyUpdated).waitFor();
    expect((await current(page)).triviaEnabled).toBe(true);
  });

  it('trivia: the language toggle defaults to the first available language; a failed list says so; a save refused shows the response text', async () => {
    const { page } = op;
    const event = await current(page);
    const lang = (l: string[]) =>
      call(page, 'PATCH', '/api/events/languages', {
        eventIds: [event._id],
        languages: event.languages,
        availableLanguages: l,
        defaultLanguage: 'english',
      });
    expect((await lang(['spanish', 'english'])).status).toBe(200);
    try {
      const q = { _id: 'lang-probe', question: 'An English question?', answer1: 'a', answer2: 'b', correctAnswer: 1 };
      const added = await call(page, 'POST', '/api/trivia/questions/english', {
        language: 'english',
        eventIds: [event._id],
        questions: [q],
      });
      expect(added.status).toBe(200);
      await page.goto('/template/trivia');
      const table = page.getByTestId('trivia-questions');
      const toggle = page.getByRole('radiogroup', { name: 'Language' });
      // The first available language (Spanish) is chosen: its list is empty; English has the question.
      expect(await toggle.getByRole('radio', { name: 'Spanish' }).isChecked()).toBe(true);
      await table.getByText(MSG.templateParts.triviaNoQuestions).waitFor();
      await toggle.getByText('English', { exact: true }).click();
      await table.getByText('An English question?').waitFor();

      // The list call fails: 'Error fetching questions.'
      await page.route('**/trivia/questions/**', (r) =>
        r.request().method() === 'GET' ? r.fulfill({ status: 500, body: '{"error":"down"}' }) : r.fallback(),
      );
      await page.reload();
      await table.getByText(MSG.templateParts.triviaFetchFailed).waitFor();
      await page.unrouteAll({ behavior: 'wait' });

      // A save the server refuses (its body made invalid on the way): the response's text is shown.
      await page.reload();
      await table.getByText(MSG.templateParts.triviaNoQuestions).waitFor();
      await page.route('**/api/trivia/questions/**', (r) => {
        const body = JSON.parse(r.request().postData() ?? '{}');
        body.questions[0].correctAnswer = 3;
        return r.continue({ postData: JSON.stringify(body) });
      });
      await page.getByRole('button', { name: 'Add new', exact: true }).click();
      const form = page.getByTestId('question-form');
      await form.getByLabel('Question').fill('Refused?');
      await form.getByLabel('Answer 1').fill('x');
      await form.getByLabel('Answer 2').fill('y');
      await form.locator('input').and(page.getByLabel('Correct answer')).click();
      await page.getByRole('option', { name: '2', exact: true }).click();
      const answered = page.waitForResponse(
        (r) => r.url().includes('/api/trivia/questions/') && r.request().method() === 'POST',
      );
      await form.getByRole('button', { name: 'Save' }).click();
      const res = await answered;
      expect(res.status()).toBe(400);
      const text = ((await res.json()) as { error: string }).error;
      expect(text).toMatch(/^Invalid request: /);
      await form.getByTestId('question-error').waitFor();
      expect(await form.getByTestId('question-error').textContent()).toBe(text);
      await page.unrouteAll({ behavior: 'wait' });
      await form.getByRole('button', { name: 'Cancel' }).click();
    } finally {
      await page.unrouteAll({ behavior: 'ignoreErrors' });
      expect((await lang(['english'])).status).toBe(200);
    }
  });

  it('promotion: a refused submit or delete says so with a cross for about 2 s', async () => {
    const { page } = op;
    const date = ((await current(page)).slugDate as string).slice(-10);
    await page.goto('/');
    await page.getByRole('button', { name: 'Live Metrics' }).click();
    const drawer = page.getByTestId('live-metrics-drawer');
    await drawer.getByRole('button', { name: 'Promo' }).click();
    const promo = page.getByTestId('promotion-modal');
    const failNext = () =>
      page.route('**/api/events', (r) =>
        r.request().method() === 'PUT'
          ? r.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"Internal server error"}' })
          : r.fallback(),
      );
    /** The cross shows on the button, and goes after about 2 s (generous bounds). */
    const crossFor = async (button: string) => {
      const cross = promo.getByTestId(button).locator('.tabler-icon-x');
      await cross.waitFor();
      const at = Date.now();
      await cross.waitFor({ state: 'detached', timeout: 10_000 });
      const ms = Date.now() - at;
      expect(ms).toBeGreaterThan(1_000);
      expect(ms).toBeLessThan(5_000);
    };

    await promo.getByLabel('Start time').fill(`${date} 21:15`);
    await failNext();
    await promo.getByRole('button', { name: 'Submit' }).click();
    await promo.getByText(MSG.events.promoSubmitFailed, { exact: true }).waitFor();
    await crossFor('promo-submit');
    await page.unrouteAll({ behavior: 'wait' });

    await promo.getByRole('button', { name: 'Submit' }).click();
    await promo.getByText(MSG.events.promoSubmitted).waitFor();
    await failNext();
    await promo.getByRole('button', { name: 'Delete' }).click();
    await promo.getByText(MSG.events.promoDeleteFailed, { exact: true }).waitFor();
    await crossFor('promo-delete');
    await page.unrouteAll({ behavior: 'wait' });
    // Nothing was deleted; now delete it for real.
    expect(((await current(page)).promo as unknown[]).length).toBe(1);
    await promo.getByRole('button', { name: 'Delete' }).click();
    await promo.getByText(MSG.events.promoDeleted).waitFor();
    await page.keyboard.press('Escape');
    await promo.getByRole('button', { name: 'Submit' }).waitFor({ state: 'detached' });
  });

  it('graphics: an SRS Icon option (label, imageSrc) becomes the icon heading the seat form of the app', async () => {
    const { page } = op;
    await page.goto('/template/graphics');
    await page.getByTestId('section-srsIcon').click();
    const options = page.getByTestId('srs-icon-options');
    expect(await options.getByRole('button').allTextContents()).toEqual(['Seat', 'Ticket', 'Stadium']);
    expect(await options.getByRole('button', { name: 'Seat' }).locator('img').getAttribute('src')).toMatch(
      /^data:image\/svg\+xml/,
    );
    await options.getByRole('button', { name: 'Seat' }).click();
    await page.getByTestId('graphics-image').waitFor();
    await page.getByTestId('update-event').click();
    await page.getByText(MSG.template.eventSuccessfullyUpdated).waitFor();
    const icon = ((await current(page)).images as Record<string, string>).srsIconUrl;
    expect(icon).toBeTruthy();

    const f = await fan('fan-srs-icon');
    await f.page.getByRole('button', { name: 'Start' }).click();
    const img = f.page.getByTestId('srs-icon');
    await img.waitFor();
    expect(await img.getAttribute('src')).toBe(icon);
    expect(await img.evaluate((e) => (e as unknown as { naturalWidth: number }).naturalWidth)).toBe(256);
    await f.context.close();
  });

  it('export: with the current event live, exporting all events is disabled; the selection may be exported, not an empty one', async () => {
    const { page } = op;
    // Until the current event is known the console has no selection: nothing to export or import into.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route(
      (url) => url.pathname === '/api/events/stadiumcam',
      async (r) => {
        await held;
        await r.continue();
      },
    );
    await page.goto('/template/export');
    const none = page.getByRole('button', { name: 'Export selected (0)' });
    await none.waitFor();
    expect(await none.isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Import Event' }).isDisabled()).toBe(true);
    release();
    await page.unrouteAll({ behavior: 'wait' });
    await page.getByRole('button', { name: 'Export selected (1)' }).waitFor();
    expect(await page.getByRole('button', { name: 'Export selected (1)' }).isDisabled()).toBe(false);
    expect(await page.getByRole('button', { name: 'Export all events' }).isDisabled()).toBe(true);
  });

  it('geofence: the reasons, the drawn map, the location modal; a fan outside is refused (app and server), a fan inside waits with a trivia question', async () => {
    const { page } = op;
    await page.goto('/template/geofence');
    await page.getByTestId('geofence-enabled').check();
    await page.getByLabel('Venue address').fill('1 Stadium Way, Winnipeg');
    await page.getByLabel('Radius (km)').fill('2');
    await page.getByLabel('Latitude').fill('49.8075');
    await page.getByLabel('Longitude').fill('-97.1433');
    await page.getByTestId('update-event').click();
    const problems = page.getByTestId('geofence-problems');
    await problems.getByText(MSG.templateParts.geofenceInvalid).waitFor();
    expect(await problems.getByRole('listitem').allTextContents()).toEqual([
      MSG.templateParts.geofenceRadiusMismatch,
      MSG.templateParts.geofenceAddressMismatch,
      MSG.templateParts.geofenceNoAllowed,
    ]);
    await problems.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: 'Draw map' }).click();
    const map = page.getByTestId('geofence-map');
    await expect
      .poll(() => map.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth))
      .toBe(1280);
    await page.getByRole('button', { name: 'Add location' }).click();
    const loc = page.getByTestId('location-modal');
    await loc.getByLabel('Location').fill('Main gate');
    await loc.getByRole('button', { name: 'Add' }).click();
    await page.getByRole('button', { name: 'Add location' }).click();
    await loc.getByLabel('Location').fill('main gate');
    await loc.getByRole('button', { name: 'Add' }).click();
    await loc.getByText(MSG.templateParts.duplicateValue).waitFor();
    await loc.getByRole('button', { name: 'Cancel' }).click();
    await stack.screenshot(page, 'template-geofence-1280');
    await page.getByTestId('update-event').click();
    await page.getByText(MSG.template.eventSuccessfullyUpdated).waitFor();
    const event = await current(page);
    expect(event.geofence).toMatchObject({ enabled: true, radius: 2, latitude: 49.8075, longitude: -97.1433 });
    // Radius negative, not whole, no allowing location: refused, nothing changed.
    for (const g of [
      { ...event.geofence, radius: -1 },
      { ...event.geofence, radius: 1.5 },
      { ...event.geofence, locations: [{ location: 'Main gate', allow: false }] },
    ]) {
      const r = await call(page, 'PATCH', '/api/events/geofence', { eventIds: [event._id], geofence: g });
      expect([400, 422]).toContain(r.status);
    }
    expect((await current(page)).geofence).toEqual(event.geofence);

    const seatForm = async (f: { page: Page }) => {
      await f.page.getByRole('button', { name: 'Start' }).click();
      await f.page.locator('input[name="section"]').fill('101');
      await f.page.locator('input[name="row"]').fill('D');
      await f.page.locator('input[name="seat"]').fill('3');
      await f.page.getByRole('button', { name: 'Join the queue' }).click();
    };
    const away = await fan('fan-away', { latitude: 49.9, longitude: -97.5 });
    await seatForm(away);
    await away.page.getByRole('alert').getByText('You need to be at the venue to use the camera.').waitFor();
    const server = await joinFromPhone(away, {
      slugDate: event.slugDate,
      userId: away.userId,
      seat: { seatType: 'section', section: '101', row: 'D', seat: '3' },
      location: { latitude: 49.9, longitude: -97.5 },
    });
    expect(server).toEqual({ status: 403, body: { error: MSG.templateParts.outsideGeofence } });
    await stack.screenshot(away.page, 'attendee-geofence-outside');
    await away.context.close();

    // Someone is already in front of the camera (its turns are long), so the fan near waits: trivia
    // shows while a fan waits, not during their own turn.
    const ahead = await newFan(stack.url);
    const aheadJoin = await fetch(`${stack.url}/api/public/queue`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-fan-token': ahead.fanToken },
      body: JSON.stringify({
        slugDate: event.slugDate,
        userId: ahead.userId,
        seat: { seatType: 'section', section: '101', row: 'D', seat: '4' },
        location: { latitude: 49.81, longitude: -97.14 },
      }),
    });
    expect(aheadJoin.status).toBe(200);
    const near = await fan('fan-near', { latitude: 49.81, longitude: -97.14 });
    await seatForm(near);
    // The questions of the trivia test, in the fan's language, one at a time.
    const trivia = near.page.getByTestId('trivia');
    await trivia.getByText('Which team won the 1990 cup?').waitFor({ timeout: 30_000 });
    await trivia.getByRole('button', { name: 'The visitors' }).click();
    await trivia.getByText('Not quite!').waitFor();
    await trivia.getByRole('button', { name: 'Next question' }).click();
    await trivia.getByText('Loudest fans?').waitFor();
    await trivia.getByRole('button', { name: 'South' }).click();
    await trivia.getByText('Correct!').waitFor();
    await stack.screenshot(near.page, 'attendee-trivia');
    await near.context.close();
  });

  it('seat options in the app: only the enabled types, in the configured order, each type presented by its mode (list: one per line; grid: tiles)', async () => {
    const { page } = op;
    const event = await current(page);
    type Opt = { type: string; enabled: boolean; forcedDisable: boolean; mode: string };
    const previous = { seatType: event.seatType as Opt[], blockedSeats: event.blockedSeats };
    // Two suites at cam1 (the mapping tool's region call): the venue gets a type besides sections.
    for (const [i, name] of ['Skyline Suite 12', 'Skyline Suite 14'].entries()) {
      const corner = (position: string, row: string, seat: number) => ({
        position,
        row,
        seat,
        pan: 100 * i + seat,
        tilt: row === 'B' ? 10 : 0,
      });
      const added = await call(page, 'POST', '/api/mapping/cam1/regions', {
        name,
        type: 'suite',
        regionType: 'default',
        corners: [
          corner('top_left', 'B', 1),
          corner('top_right', 'B', 4),
          corner('bottom_left', 'A', 1),
          corner('bottom_right', 'A', 4),
        ],
        angle: 0,
        zoomFactor: 0.5,
      });
      expect(added.status).toBe(200);
    }
    // Suite first in list mode, box forced off, then section in grid mode; the rest off.
    const configured: Opt[] = [
      { type: 'suite', enabled: true, forcedDisable: false, mode: 'list' },
      { type: 'box', enabled: false, forcedDisable: true, mode: 'grid' },
      { type: 'section', enabled: true, forcedDisable: false, mode: 'grid' },
      ...previous.seatType.filter((o) => !['suite', 'box', 'section'].includes(o.type)),
    ];
    expect(configured.filter((o) => o.enabled).map((o) => o.type)).toEqual(['suite', 'section']);
    const saved = await call(page, 'PATCH', '/api/events/seatOptions', {
      eventIds: [event._id],
      seatType: configured,
      blockedSeats: previous.blockedSeats,
    });
    expect(saved.status).toBe(200);
    // The console shows the same order.
    await page.goto('/template/seatOptions');
    const cardsOrder = () =>
      page
        .getByTestId('seat-types')
        .locator('[data-type]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-type')!));
    await page.getByTestId('seat-types').locator('[data-type]').first().waitFor();
    await expect
      .poll(async () => (await cardsOrder()).slice(0, 3), { timeout: 10_000 })
      .toEqual(['suite', 'box', 'section']);

    try {
      // Inside the venue's geofence (the geofence test left it on).
      const f = await fan('fan-seat-modes', { latitude: 49.81, longitude: -97.14 });
      await f.page.getByRole('button', { name: 'Start' }).click();
      const typeSelect = f.page.locator('select[name="seatType"]');
      await typeSelect.waitFor();
      expect(await typeSelect.locator('option').allTextContents()).toEqual(['Suite', 'Section']);
      expect(await typeSelect.inputValue()).toBe('suite');
      const choices = f.page.getByTestId('seat-choices');
      const tiles = choices.getByRole('button');
      const boxes = async () =>
        tiles.evaluateAll((els) =>
          els.map((e) => {
            const r = e.getBoundingClientRect();
            return { x: Math.round(r.x), y: Math.round(r.y), w: Math.round(r.width) };
          }),
        );
      const mode = () => choices.getAttribute('data-mode');
      const step = () => choices.getAttribute('data-step');

      // Section in grid mode: the sections as tiles, several to a line.
      await typeSelect.selectOption('section');
      await expect.poll(step, { timeout: 15_000 }).toBe('section');
      expect(await mode()).toBe('grid');
      await expect.poll(() => tiles.count(), { timeout: 15_000 }).toBeGreaterThan(4);
      const grid = await boxes();
      expect(grid[1].y).toBe(grid[0].y);
      expect(grid[1].x).toBeGreaterThan(grid[0].x);
      const width = (await choices.boundingBox())!.width;
      expect(grid[0].w).toBeLessThan(width / 2);
      await choices.getByRole('button', { name: '101', exact: true }).click();
      expect(await f.page.locator('input[name="section"]').inputValue()).toBe('101');
      await expect.poll(step, { timeout: 15_000 }).toBe('row');
      expect(await mode()).toBe('grid');

      // Suite in list mode: the suites one per line, full width; then its rows and seats.
      await typeSelect.selectOption('suite');
      await expect.poll(step, { timeout: 15_000 }).toBe('section');
      expect(await mode()).toBe('list');
      expect(await f.page.locator('input[name="section"]').inputValue()).toBe('');
      await expect
        .poll(() => tiles.allTextContents(), { timeout: 15_000 })
        .toEqual(['Skyline Suite 12', 'Skyline Suite 14']);
      const list = await boxes();
      expect(list[0].x).toBe(list[1].x);
      expect(list[1].y).toBeGreaterThan(list[0].y);
      expect(list[0].w).toBeGreaterThan(width * 0.9);
      await stack.screenshot(f.page, 'attendee-seat-list');
      await choices.getByRole('button', { name: 'Skyline Suite 12' }).click();
      await expect.poll(step, { timeout: 15_000 }).toBe('row');
      expect(await mode()).toBe('list');
      await expect.poll(() => tiles.allTextContents(), { timeout: 15_000 }).toEqual(['A', 'B']);
      await choices.getByRole('button', { name: 'A', exact: true }).click();
      await expect.poll(step, { timeout: 15_000 }).toBe('seat');
      await expect.poll(() => tiles.allTextContents(), { timeout: 15_000 }).toEqual(['1', '2', '3', '4']);
      await choices.getByRole('button', { name: '3', exact: true }).click();
      expect(await choices.getByRole('button', { name: '3', exact: true }).getAttribute('aria-pressed')).toBe('true');
      expect(
        await Promise.all(['section', 'row', 'seat'].map((n) => f.page.locator(`input[name="${n}"]`).inputValue())),
      ).toEqual(['Skyline Suite 12', 'A', '3']);
      await f.page.getByRole('button', { name: 'Join the queue' }).click();
      await f.page.locator('[data-screen="queue"]').waitFor({ timeout: 30_000 });
      const ticket = await f.page.evaluate<{ seat: unknown }>(
        `JSON.parse(localStorage.getItem('stadiumcam.ticket') ?? 'null')`,
      );
      expect(ticket.seat).toEqual({ seatType: 'suite', section: 'Skyline Suite 12', row: 'A', seat: '3' });
      await f.context.close();
    } finally {
      const back = await call(page, 'PATCH', '/api/events/seatOptions', { eventIds: [event._id], ...previous });
      expect(back.status).toBe(200);
    }
  });
});

describe('template: geocoding in the console, and a screen without its permission', () => {
  let stack: Stack;
  let geocoder: Server;
  const asked: string[] = [];

  beforeAll(async () => {
    // A Nominatim-compatible geocoder on this machine (GEOCODER_URL), as a venue would run one.
    geocoder = createServer((req, res) => {
      const q = new URL(req.url ?? '/', 'http://x').searchParams.get('q') ?? '';
      asked.push(q);
      const hits = q.startsWith('Canad')
        ? [{ lat: '49.8077', lon: '-97.1433', display_name: 'Canada Life Centre' }]
        : [];
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(hits));
    });
    await new Promise<void>((resolve) => geocoder.listen(0, '127.0.0.1', resolve));
    const port = (geocoder.address() as AddressInfo).port;
    stack = await startStack({ config: { geocoderUrl: `http://127.0.0.1:${port}/` } });
  });
  afterAll(async () => {
    await stack?.close();
    await new Promise((resolve) => geocoder?.close(resolve));
  });

  it('geofence: Find turns the venue address into its latitude and longitude; an unknown address says so', async () => {
    const { page, context } = await stack.newPage({ login: admin, path: '/template/geofence' });
    const address = page.getByLabel('Venue address');
    await address.fill('Canada Life Centre, Winnipeg');
    await page.getByRole('button', { name: 'Find' }).click();
    await expect.poll(() => field(page, 'Latitude').inputValue()).toBe('49.8077');
    expect(await field(page, 'Longitude').inputValue()).toBe('-97.1433');
    expect(asked).toContain('Canada Life Centre, Winnipeg');
    await address.fill('Nowhere at all');
    await page.getByRole('button', { name: 'Find' }).click();
    await page.getByRole('dialog').getByText(MSG.templateParts.addressNotFound).waitFor();
    // The centre found before stays.
    expect(await field(page, 'Latitude').inputValue()).toBe('49.8077');
    await context.close();
  });

  it('export/import opens without a permission wrapper (spec 2 §6); without Template it says so, its buttons are disabled and the server refuses the export', async () => {
    const op = await stack.newPage({ login: admin, path: '/' });
    const status = (method: string, url: string, body?: unknown) => call(op.page, method, url, body);
    expect(
      (await status('POST', '/api/roles/monitor-only', { permissions: [P.MONITOR_READ], isNew: true })).status,
    ).toBe(200);
    expect(
      (
        await status('POST', '/api/users', {
          username: 'monitoronly',
          email: 'monitoronly@example.com',
          password: 'monitor-only-password-1',
          roles: ['monitor-only'],
        })
      ).status,
    ).toBe(200);
    await op.context.close();
    const { page, context } = await stack.newPage({
      login: { username: 'monitoronly', password: 'monitor-only-password-1' },
      path: '/template/export',
    });
    await page.getByRole('heading', { name: 'Import Event' }).waitFor();
    expect(await page.getByText(MSG.common.insufficientPermissions).count()).toBe(0);
    expect((await call(page, 'GET', '/api/events/stadiumcam/export')).status).toBe(403);
    // The console says why and offers no button the server would refuse.
    await page.getByTestId('export-needs-template').getByText(MSG.templateParts.exportNeedsTemplate).waitFor();
    for (const name of [/^Export selected/, /^Export all events/, /^Import Event/])
      expect(await page.getByRole('button', { name }).isDisabled()).toBe(true);
    await context.close();
  });
});
