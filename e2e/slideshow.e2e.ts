import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG, SLIDESHOW_DEFAULTS } from '@stadiumcam/contract';
import { events } from '../apps/server/src/db/schema/index.ts';
import { ADMIN_PASSWORD, startStack, type Stack } from './fixtures/stack.ts';
import { makePhoto } from '../apps/server/src/test/factories.ts';

/** Photos of the master template (the current event of a stack with no dated event). */
async function seed(stack: Stack, n: number, video: boolean): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = randomUUID();
    const jpeg = await sharp({
      create: { width: 1600, height: 1200, channels: 3, background: ['#1d4e89', '#f79256', '#2b8a3e'][i % 3] },
    })
      .jpeg()
      .toBuffer();
    const dir = `stadiumcam/${id}`;
    const raw = await stack.app.deps.media.put(`${dir}/raw.jpg`, jpeg);
    // A .mp4 URI is shown as a video whatever the bytes are; the page only looks at the name.
    const shared = video && i === 0 ? await stack.app.deps.media.put(`${dir}/clip.mp4`, jpeg) : raw;
    await makePhoto(stack.app.deps.db, {
      id,
      slug: 'stadiumcam',
      slugDate: 'stadiumcam',
      userId: `fan-${i}`,
      camera: 'cam1',
      section: '101',
      row: 'A',
      seat: String(i + 1),
      thumbUri: raw,
      smallUri: raw,
      rawCroppedUri: raw,
      sharedUri: shared,
      mediaType: video && i === 0 ? 'video/mp4' : 'image',
    });
    ids.push(id);
  }
  return ids;
}

async function favourite(operator: Page, ids: string[]) {
  const status = await operator.evaluate(
    async (body) => {
      const res = await fetch('/api/snapshots/favorite', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      return res.status;
    },
    { ids, favorite: true },
  );
  expect(status).toBe(200);
}

describe('public slideshow page (spec 3 §2.9)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('shows NO IMAGES AVAILABLE without favourites, then the favourites in a random, non-repeating order without a reload', async () => {
    const ids = await seed(stack, 3, true);
    await stack.app.deps.db
      .update(events)
      .set({
        config: {
          slideshow: {
            ...SLIDESHOW_DEFAULTS,
            transitionTime: 1000,
            transitionDuration: 200,
            backgroundColor: '#101820',
            slideshowBannerUrl: await stack.app.deps.media.put(
              'stadiumcam/banner.png',
              await sharp({ create: { width: 1920, height: 180, channels: 3, background: '#e03131' } })
                .png()
                .toBuffer(),
            ),
          },
        },
      })
      .where(eq(events.slugDate, 'stadiumcam'));

    // No login: a venue screen opens the page as anyone.
    const { page: screen } = await stack.newPage({ path: '/slideshow', viewport: { width: 1920, height: 1080 } });
    await screen.getByText(MSG.templateParts.slideshowEmpty, { exact: true }).waitFor();
    await stack.screenshot(screen, 'slideshow-empty');

    const { page: operator } = await stack.newPage({ login: { username: 'admin', password: ADMIN_PASSWORD } });
    await favourite(operator, ids);

    // The 'monitor favoritedSnapshots' event reloads the list: no navigation on the screen.
    await screen.getByTestId('slideshow').waitFor();
    expect(await screen.getByTestId('slideshow-thumbs').locator('img, video').count()).toBe(3);
    expect(await screen.getByTestId('slideshow-thumbs').locator('img[loading="lazy"]').count()).toBe(3);
    expect(await screen.getByRole('button').count()).toBe(0);
    await screen.getByTestId('slideshow-banner').waitFor();
    expect(await screen.getByTestId('slideshow').getAttribute('style')).toContain('rgb(16, 24, 32)');

    // Every slide shows once before any repeats, the .mp4 one as a video.
    const seen: string[] = [];
    await expect
      .poll(
        async () => {
          const id = await screen.getByTestId('slide-current').getAttribute('data-id');
          if (id && seen.at(-1) !== id) seen.push(id);
          return seen.length;
        },
        { timeout: 20_000, interval: 100 },
      )
      .toBeGreaterThanOrEqual(3);
    expect([...seen.slice(0, 3)].sort()).toEqual([...ids].sort());
    await screen.locator(`[data-testid="slide-current"][data-id="${ids[0]}"] video`).waitFor({ timeout: 10_000 });
    await screen.locator(`[data-testid="slide-current"]:not([data-id="${ids[0]}"]) img`).waitFor({ timeout: 10_000 });
    await stack.screenshot(screen, 'slideshow-1920');
  });

  it('shows LOADING until the images arrive; a loading failure is logged and reads NO IMAGES AVAILABLE', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const { page: screen, context } = await stack.newPage({ viewport: { width: 1920, height: 1080 } });
    const logged: string[] = [];
    screen.on('console', (m) => {
      if (m.type() === 'error') logged.push(m.text());
    });
    await screen.route('**/api/slideshow/images', async (r) => {
      await held;
      await r.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"Internal server error"}' });
    });
    await screen.goto('/slideshow');
    await screen.getByText(MSG.templateParts.slideshowLoading, { exact: true }).waitFor();
    release();
    await screen.getByText(MSG.templateParts.slideshowEmpty, { exact: true }).waitFor({ timeout: 30_000 });
    expect(logged.some((t) => t.startsWith('Slideshow: loading the images failed'))).toBe(true);
    await screen.unrouteAll({ behavior: 'ignoreErrors' });
    await context.close();
  });
});
