import { copyFile, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import Papa from 'papaparse';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { MSG, PREVIEW_SCREENS } from '@stadiumcam/contract';
import { ensureTodayEventLive, getEventBySlugDate } from '../apps/server/src/modules/events/events.service.ts';
import { ADMIN_PASSWORD, startStack, type Stack } from './fixtures/stack.ts';
import { eventSelector } from './fixtures/event-selector.ts';
import { newFan } from './fixtures/fans.ts';
import { SocketPool } from '../apps/server/src/test/realtime.ts';
import { makePhoto } from '../apps/server/src/test/factories.ts';
import { hugePng } from '../apps/server/src/test/png.ts';

const admin = { username: 'admin', password: ADMIN_PASSWORD };
const DOCS = path.resolve(import.meta.dirname, '../docs/img');

type Format = 'png' | 'jpeg' | 'webp';
/** A flat image (a few KB) or noise (does not compress: above every byte rule). */
const image = async (width: number, height: number, format: Format, noise = false) => ({
  name: `${width}x${height}.${format === 'jpeg' ? 'jpg' : format}`,
  mimeType: `image/${format}`,
  buffer: await sharp({
    create: {
      width,
      height,
      channels: 3,
      background: { r: 200, g: 60, b: 40 },
      ...(noise ? { noise: { type: 'gaussian' as const, mean: 128, sigma: 60 } } : {}),
    },
  })
    .toFormat(format, format === 'jpeg' ? { quality: 95 } : {})
    .toBuffer(),
});

type UploadFile = { name: string; mimeType: string; buffer: Buffer };

/**
 * Sets `file` on `input` and waits for `shown`. A file set while the page still mounts its import
 * control is lost (on a loaded box), so it is set once more.
 */
async function importUntil(input: Locator, file: UploadFile, shown: Locator) {
  await input.setInputFiles(file);
  const ok = await shown.waitFor({ timeout: 10_000 }).then(
    () => true,
    () => false,
  );
  if (!ok) {
    await input.setInputFiles(file);
    await shown.waitFor();
  }
}

/** Imports a colours file on the Colours page and waits for the dialog with `text`. */
async function importColours(page: Page, file: UploadFile, text: string) {
  const dialog = page.getByRole('dialog').filter({ hasText: text });
  await importUntil(page.locator('input[type="file"][accept="application/json,.json"]'), file, dialog);
  return dialog;
}

describe('template screens reach an open attendee app', () => {
  let stack: Stack;
  let slugDate = '';
  beforeAll(async () => {
    stack = await startStack();
    slugDate = (await ensureTodayEventLive(stack.app.deps)).slugDate;
  });
  const stored = async () => (await getEventBySlugDate(stack.app.deps, slugDate))!;
  afterAll(async () => {
    await stack?.close();
  });

  it('the attendee app at 390×844, screenshotted for the docs (the template colours)', async () => {
    await mkdir(DOCS, { recursive: true });
    for (const [name, at] of [
      ['landing', '/app/'],
      ['seat', '/app/#/seat'],
      ['share', '/app/?preview=1#/share/preview'],
    ] as const) {
      const fan = await stack.newPage({ path: at, viewport: { width: 390, height: 844 } });
      await fan.page.locator(`[data-screen="${name}"]`).waitFor();
      await stack.screenshot(fan.page, `attendee-${name}`);
      await copyFile(
        path.resolve(import.meta.dirname, `artifacts/attendee-${name}.png`),
        path.join(DOCS, `attendee-${name}.png`),
      );
      await fan.context.close();
    }
  });
  it('an operator edits a text and a colour for the live event; the open app shows both without a reload', async () => {
    const fan = await stack.newPage({ path: '/app/', viewport: { width: 390, height: 844 } });
    await fan.page.getByRole('button', { name: 'Start' }).waitFor();
    // Marks the document: a reload would lose it.
    await fan.page.evaluate('window.stillHere = true');

    const op = await stack.newPage({ login: admin, path: '/template/Languages' });
    const cell = op.page.locator('[data-key="landing.start"] td[data-lang="english"]');
    await cell.dblclick();
    await op.page.getByLabel('landing.start english').fill('Smile now');
    await op.page.getByText('Text Settings').click();
    await expect.poll(() => cell.getAttribute('data-state')).toBe('modified');
    await op.page.getByTestId('update-event').click();
    await op.page.getByText(MSG.template.eventSuccessfullyUpdated).waitFor();
    await fan.page.getByRole('button', { name: 'Smile now' }).waitFor();

    await op.page.goto('/template/colors');
    const bg = op.page.getByLabel('Background color', { exact: true });
    await bg.fill('aa0000');
    await bg.blur();
    await op.page.getByTestId('update-event').click();
    await op.page.getByText(MSG.template.eventSuccessfullyUpdated).waitFor();
    await expect
      .poll(() => fan.page.evaluate('getComputedStyle(document.body).backgroundColor'), { timeout: 10_000 })
      .toBe('rgb(170, 0, 0)');
    expect(await fan.page.evaluate('window.stillHere')).toBe(true);

    await stack.screenshot(fan.page, 'attendee-live-update');
    await op.context.close();
    await fan.context.close();
  });

  it("graphics: the venue type starts as 'stadium', a spinner shows while an image uploads, deleting asks 'Do you want to delete the image?'", async () => {
    // A new event (from the master template) has the venue type stadium; the page shows it.
    expect((await stored()).venueType).toBe('stadium');
    const op = await stack.newPage({ login: admin, path: '/template/graphics' });
    const venue = op.page.locator('[aria-label="Venue type"]');
    await venue.waitFor();
    await expect.poll(() => venue.locator('input:checked').getAttribute('value')).toBe('stadium');

    // The upload is held until its spinners (section list and dropzone) have been seen.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await op.page.route('**/api/events/*/images/logo', async (route) => {
      await held;
      await route.continue();
    });
    await op.page.getByTestId('section-logo').click();
    const drop = op.page.getByTestId('graphics-dropzone');
    await drop.locator('input[type="file"]').setInputFiles(await image(800, 450, 'png'));
    await op.page.getByTestId('section-logo').locator('.mantine-Loader-root').waitFor();
    await drop.locator('.mantine-Loader-root').waitFor();
    await stack.screenshot(op.page, 'graphics-uploading');
    release();
    const img = op.page.getByTestId('graphics-image');
    await img.waitFor();
    expect(await op.page.getByTestId('section-logo').locator('.mantine-Loader-root').count()).toBe(0);
    const src = (await img.getAttribute('src'))!;
    expect(src).toMatch(new RegExp(`^/media/${slugDate}/images/logo-[a-f0-9]+\\.png$`));

    // Delete asks first; Cancel keeps the image.
    await op.page.getByRole('button', { name: 'Delete image' }).click();
    const dialog = op.page.getByRole('dialog');
    await dialog.getByText(MSG.templateImages.deleteConfirm, { exact: true }).waitFor();
    await stack.screenshot(op.page, 'graphics-delete-confirm');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await img.getAttribute('src')).toBe(src);
    // Delete removes it: the dropzone is back, and the file goes (no event uses it).
    await op.page.getByRole('button', { name: 'Delete image' }).click();
    await dialog.getByText(MSG.templateImages.deleteConfirm, { exact: true }).waitFor();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await drop.waitFor();
    expect(await img.count()).toBe(0);
    await expect.poll(async () => (await fetch(`${stack.url}${src}`)).status, { timeout: 10_000 }).toBe(404);
    // Nothing was saved without Update Event.
    expect((await stored()).images).toEqual({});
    await op.context.close();
  });

  it(
    'graphics: each rule refused in the console with its text, a server refusal clears the file, a valid front image reaches the open app',
    { timeout: 240_000 },
    async () => {
      const fan = await stack.newPage({ path: '/app/', viewport: { width: 390, height: 844 } });
      await fan.page.locator('[data-screen="landing"]').waitFor();
      await fan.page.evaluate('window.stillHere = true');
      const op = await stack.newPage({ login: admin, path: '/template/graphics' });
      let uploads = 0;
      op.page.on('request', (r) => {
        if (r.method() === 'POST' && /\/api\/events\/[^/]+\/images\//.test(r.url())) uploads++;
      });
      const drop = op.page.locator('[data-testid="graphics-dropzone"] input[type="file"]');
      const error = op.page.getByTestId('graphics-error');
      const M = MSG.templateImages;
      const refused = [
        ['watermark', await image(1080, 1000, 'png'), M.watermarkSquare],
        ['watermark', await image(1000, 1000, 'png'), M.watermarkDimensions],
        ['watermark', await image(1080, 1080, 'jpeg', true), M.watermarkTooLarge],
        ['frontPage', await image(700, 1280, 'webp'), M.frontPageMin],
        ['frontPage', await image(720, 1280, 'jpeg', true), M.frontPageTooLarge],
        ['frontPage', await image(1000, 1280, 'webp'), M.frontPageAspect],
        ['logo', await image(500, 300, 'png'), M.logoMin],
        ['logo', await image(800, 450, 'jpeg', true), M.logoTooLarge],
        ['logo', await image(600, 400, 'png'), M.logoAspect],
        ['logo', { name: 'huge.png', mimeType: 'image/png', buffer: hugePng() }, M.tooManyPixels],
        ['slideshowBanner', await image(1920, 181, 'png'), M.slideshowBannerSize],
        ['slideshowBanner', { name: 'empty.png', mimeType: 'image/png', buffer: Buffer.alloc(0) }, M.onlyImages],
        [
          'seo',
          {
            name: 'logo.svg',
            mimeType: 'image/svg+xml',
            buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
          },
          M.onlyImages,
        ],
      ] as const;
      for (const [key, file, text] of refused) {
        await op.page.getByTestId(`section-${key}`).click();
        await drop.setInputFiles(file);
        await expect.poll(() => error.textContent(), { message: `${key} ${file.name}`, timeout: 15_000 }).toBe(text);
      }
      // Refused before anything was sent.
      expect(uploads).toBe(0);
      await stack.screenshot(op.page, 'graphics-refused');

      // A PNG renamed .webp passes the console's pixel checks; the server's text is shown and the
      // file is cleared (the dropzone is back, no image).
      await op.page.getByTestId('section-frontPage').click();
      const png = await image(720, 1280, 'png');
      await drop.setInputFiles({ ...png, name: 'front.webp', mimeType: 'image/webp' });
      await expect.poll(() => error.textContent(), { timeout: 15_000 }).toBe(M.typeMismatch);
      expect(uploads).toBe(1);
      await expect.poll(() => op.page.getByTestId('graphics-image').count()).toBe(0);
      await drop.waitFor({ state: 'attached' });

      const front = await image(720, 1280, 'webp');
      await drop.setInputFiles(front);
      const img = op.page.getByTestId('graphics-image');
      await img.waitFor();
      const src = (await img.getAttribute('src'))!;
      expect(src).toMatch(new RegExp(`^/media/${slugDate}/images/frontPage-[a-f0-9]+\\.webp$`));
      await expect.poll(() => error.count()).toBe(0);
      // Saved only by Update Event.
      expect((await stored()).images).toEqual({});
      await op.page.getByText('Arena', { exact: true }).click();
      await op.page.getByTestId('update-event').click();
      const ok = op.page.getByText(MSG.template.eventSuccessfullyUpdated);
      await ok.waitFor();
      await stack.screenshot(op.page, 'graphics-saved');
      // The success popup closes itself (1.5 s).
      await ok.waitFor({ state: 'hidden' });
      expect((await stored()).images).toMatchObject({ frontPageUrl: src });
      expect((await stored()).venueType).toBe('arena');
      await expect
        .poll(() => fan.page.getByTestId('front-image').getAttribute('style'), { timeout: 10_000 })
        .toContain(src);
      expect(await fan.page.evaluate('window.stillHere')).toBe(true);
      await stack.screenshot(fan.page, 'attendee-front-image');
      await op.context.close();
      await fan.context.close();
    },
  );

  it(
    'colours: each bad import file refused with its text, Preview all shows the real app screens with the unsaved colours, Update Event saves colours then screenshots',
    { timeout: 240_000 },
    async () => {
      const op = await stack.newPage({ login: admin, path: '/template/colors' });
      const bg = op.page.getByLabel('Background color', { exact: true });
      await bg.waitFor();
      const input = op.page.locator('input[type="file"][accept="application/json,.json"]');
      const C = MSG.templateColors;
      const file = (name: string, text: string, mimeType = 'application/json') => ({
        name,
        mimeType,
        buffer: Buffer.from(text),
      });
      for (const [f, text] of [
        [file('colors.txt', '{"colors":{}}', 'text/plain'), C.invalidFileType],
        [file('broken.json', '{"colors": {'), C.invalidJson],
        [file('theme.json', '{"theme":{"backgroundColor":"#123456"}}'), C.noColorsProperty],
        [
          file('names.json', '{"colors":{"theme":{"backgroundColor":"navy"},"slideshowColor":"12345"}}'),
          C.noValidColors,
        ],
      ] as const) {
        const dialog = await importColours(op.page, f, text);
        await dialog.getByRole('button', { name: 'Close' }).click();
        await dialog.waitFor({ state: 'hidden' });
      }
      const before = await stored();
      expect(await bg.inputValue()).toBe(before.theme.backgroundColor);
      // BOM, a missing '#': kept; unknown names ignored.
      await input.setInputFiles(
        file(
          'good.json',
          '\uFEFF{"colors":{"theme":{"backgroundColor":"123456","bogus":"#fff"},"emailSettings":{"headerBgColor":"#654321"}}}',
        ),
      );
      await op.page.getByText(C.imported).waitFor();
      expect(await bg.inputValue()).toBe('#123456');

      const downloading = op.page.waitForEvent('download');
      await op.page.getByRole('button', { name: 'Export' }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toBe(`${slugDate}-colors.json`);
      const exported = JSON.parse(await readFile(await download.path(), 'utf8'));
      expect(exported.colors.theme.backgroundColor).toBe('#123456');
      expect(exported.colors.emailSettings.headerBgColor).toBe('#654321');

      await op.page.getByRole('button', { name: 'Preview all' }).click();
      const modal = op.page.getByRole('dialog').filter({ hasText: 'Preview all' });
      await modal.waitFor();
      for (const shot of PREVIEW_SCREENS.filter((s) => s.screen !== 'email')) {
        const frame = modal.frameLocator(`iframe[title="${shot.title}"]`);
        await frame.locator(`[data-screen="${shot.screen.split('/')[0]}"]`).waitFor();
        // The unsaved colour, in the real app.
        await expect
          .poll(
            () =>
              frame
                .locator('body')
                .evaluate((el) => (globalThis as any).getComputedStyle(el).backgroundColor as string),
            {
              message: shot.title,
              timeout: 15_000,
            },
          )
          .toBe('rgb(18, 52, 86)');
      }
      const email = modal.frameLocator('iframe[title="Photo e-mail"]');
      await expect
        .poll(
          () =>
            email
              .locator('[data-part="header"]')
              .evaluate((el) => (globalThis as any).getComputedStyle(el).backgroundColor as string),
          {
            timeout: 15_000,
          },
        )
        .toBe('rgb(101, 67, 33)');
      await stack.screenshot(op.page, 'colors-preview-all');
      await op.page.keyboard.press('Escape');
      await modal.waitFor({ state: 'hidden' });
      // Nothing saved yet.
      expect((await stored()).theme.backgroundColor).toBe(before.theme.backgroundColor);

      const saves: string[] = [];
      op.page.on('request', (r) => {
        if (/\/api\/events\/(colors|screenshots)$/.test(r.url()))
          saves.push(`${r.method()} ${new URL(r.url()).pathname}`);
      });
      await op.page.getByTestId('update-event').click();
      await op.page.getByText(MSG.template.eventSuccessfullyUpdated).waitFor();
      expect(saves).toEqual(['PATCH /api/events/colors', 'POST /api/events/screenshots']);
      const after = await stored();
      expect(after.theme.backgroundColor).toBe('#123456');
      expect((after.emailSettings as Record<string, string>).headerBgColor).toBe('#654321');
      expect(after.screenshots).toEqual(PREVIEW_SCREENS);
      expect(after.screenshotsHash).toMatch(/^[0-9a-f]{64}$/);
      await op.context.close();
    },
  );

  it(
    'languages: a CSV round trip with a modified cell and a new language; a CSV with wrong columns is refused',
    { timeout: 120_000 },
    async () => {
      const op = await stack.newPage({ login: admin, path: '/template/Languages' });
      await op.page.getByTestId('languages-table').waitFor();
      const input = op.page.locator('input[type="file"][accept=".csv,text/csv"]');

      await importUntil(
        input,
        { name: 'wrong.csv', mimeType: 'text/csv', buffer: Buffer.from('name,text\na,b\n') },
        op.page.getByTestId('import-errors').getByText(MSG.template.csvNoKey),
      );
      // 10 MB: refused before it is read.
      await input.setInputFiles({
        name: 'huge.csv',
        mimeType: 'text/csv',
        buffer: Buffer.alloc(10 * 1024 * 1024, 'key,english\n'),
      });
      await op.page.getByTestId('import-errors').getByText(MSG.template.csvTooLarge).waitFor();

      const downloading = op.page.waitForEvent('download');
      await op.page.getByRole('button', { name: 'Export' }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toBe(`${slugDate}-languages.csv`);
      const csv = await readFile(await download.path(), 'utf8');
      expect(csv.charCodeAt(0)).toBe(0xfeff);
      const rows = Papa.parse<Record<string, string>>(csv.slice(1), { header: true, skipEmptyLines: true }).data;
      for (const row of rows) row.spanish = row.key === 'landing.start' ? 'Vamos, "amigos"' : '';
      rows.find((r) => r.key === 'landing.title')!.english = 'Smile, you are on camera';
      await input.setInputFiles({
        name: 'table.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(`\uFEFF${Papa.unparse(rows)}`),
      });
      await op.page.getByText(`${MSG.template.importSuccessful} Added: spanish.`).waitFor();
      await expect.poll(() => op.page.getByTestId('import-errors').count()).toBe(0);
      const cell = (key: string, lang: string) => op.page.locator(`[data-key="${key}"] td[data-lang="${lang}"]`);
      expect(await cell('landing.title', 'english').getAttribute('data-state')).toBe('modified');
      expect(await cell('landing.start', 'spanish').getAttribute('data-state')).toBe('modified');
      expect(await cell('landing.start', 'spanish').textContent()).toBe('Vamos, "amigos"');
      expect(await cell('landing.subtitle', 'spanish').getAttribute('data-state')).toBe('empty');
      expect(await cell('landing.subtitle', 'english').getAttribute('data-state')).toBe('');
      await stack.screenshot(op.page, 'languages-imported');
      // Imported, not saved: Update Event saves.
      expect((await stored()).availableLanguages).not.toContain('spanish');
      await op.page.getByTestId('update-event').click();
      await op.page.getByText(MSG.template.eventSuccessfullyUpdated).waitFor();
      const after = await stored();
      expect(after.availableLanguages).toContain('spanish');
      const languages = after.languages as Record<string, { texts: Record<string, string> }>;
      expect(languages['landing.start'].texts.spanish).toBe('Vamos, "amigos"');
      expect(languages['landing.title'].texts.english).toBe('Smile, you are on camera');

      // An answer without the three fields (spec 2 §7, §8): 'Unexpected API response', only logged.
      const logged: string[] = [];
      op.page.on('console', (m) => m.type() === 'error' && logged.push(m.text()));
      await op.page.route('**/api/events/languages', (route) =>
        route.fulfill({ status: 200, json: { languages: {} } }),
      );
      await op.page.getByTestId('update-event').click();
      await expect.poll(() => logged.some((l) => l.includes(MSG.template.unexpectedApiResponse))).toBe(true);
      expect(await op.page.getByText(MSG.template.eventSuccessfullyUpdated).count()).toBe(0);
      expect(await op.page.getByRole('dialog').count()).toBe(0);
      await op.context.close();
    },
  );

  it(
    'the app is installable (manifest, icons, service worker), small (≤ 120 KiB gzip JS), with the SEO image in its meta tags; the console shows its QR code and link',
    { timeout: 120_000 },
    async () => {
      const op = await stack.newPage({ login: admin, path: '/' });
      // The SEO image, uploaded and saved as the Graphics page does.
      const seo = await op.page.request.post(`/api/events/${slugDate}/images/seo`, {
        headers: { origin: stack.url },
        multipart: { image: await image(600, 600, 'png') },
      });
      expect(seo.status()).toBe(200);
      const { url: seoUrl, rawUrl } = (await seo.json()) as { url: string; rawUrl: string };
      const event = await stored();
      const save = await op.page.request.patch('/api/events/images', {
        headers: { origin: stack.url },
        data: {
          eventIds: [event._id],
          images: { ...event.images, seoUrl, seoRawUrl: rawUrl },
          venueType: event.venueType,
        },
      });
      expect(save.status()).toBe(200);

      const html = await (await fetch(`${stack.url}/app/`)).text();
      expect(html).toContain(`<meta property="og:image" content="${stack.url}${seoUrl}" />`);
      expect(html).toContain('<link rel="manifest" href="./manifest.webmanifest" />');
      const manifest = (await (await fetch(`${stack.url}/app/manifest.webmanifest`)).json()) as {
        start_url: string;
        display: string;
        icons: { src: string; sizes: string; type: string }[];
      };
      expect(manifest).toMatchObject({ start_url: '/app/', display: 'standalone' });
      expect(manifest.icons.map((i) => i.sizes)).toEqual(['192x192', '512x512']);
      for (const icon of manifest.icons) {
        const res = await fetch(`${stack.url}/app/${icon.src}`);
        expect(res.headers.get('content-type')).toBe('image/png');
        const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
        expect(`${meta.width}x${meta.height}`).toBe(icon.sizes);
      }
      const scripts = [...html.matchAll(/<script[^>]+src="([^"]+\.js)"/g)].map((m) => m[1]);
      expect(scripts.length).toBeGreaterThan(0);
      let gzipped = 0;
      for (const src of scripts) {
        const js = Buffer.from(await (await fetch(new URL(src, `${stack.url}/app/`))).arrayBuffer());
        gzipped += gzipSync(js, { level: 9 }).length;
      }
      console.log(`attendee app JS: ${(gzipped / 1024).toFixed(1)} KiB gzip`);
      expect(gzipped).toBeLessThanOrEqual(120 * 1024);

      const fan = await stack.newPage({
        path: '/app/',
        viewport: { width: 390, height: 844 },
        serviceWorkers: 'allow',
      });
      await fan.page.locator('[data-screen="landing"]').waitFor();
      // A string: the e2e code is typed without the DOM library.
      const sw = await fan.page.evaluate(`(async () => {
        const reg = await navigator.serviceWorker.ready;
        const worker = reg.active;
        if (worker.state !== 'activated') {
          await new Promise((resolve) =>
            worker.addEventListener('statechange', () => worker.state === 'activated' && resolve()),
          );
        }
        return { scope: reg.scope, script: worker.scriptURL, cached: (await caches.keys()).length };
      })()`);
      expect(sw).toEqual({ scope: `${stack.url}/app/`, script: `${stack.url}/app/sw.js`, cached: 1 });

      await op.page.getByRole('button', { name: 'Attendee app' }).click();
      const popover = op.page.getByTestId('attendee-app-link');
      const qr = popover.getByRole('img', { name: 'QR code of the attendee app' });
      await qr.waitFor();
      await expect
        .poll(() => qr.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth), {
          timeout: 15_000,
        })
        .toBeGreaterThan(0);
      expect(await popover.getByRole('link', { name: `${stack.url}/app/` }).getAttribute('href')).toBe(
        `${stack.url}/app/`,
      );
      await stack.screenshot(op.page, 'attendee-app-qr');
      await op.context.close();
      await fan.context.close();
    },
  );

  it('save feedback: a vanished event, a lost connection, then success', { timeout: 120_000 }, async () => {
    const op = await stack.newPage({ login: admin, path: '/template/colors' });
    const bg = op.page.getByLabel('Background color', { exact: true });
    await bg.waitFor();
    const before = (await stored()).theme.backgroundColor;
    await bg.fill('#0a0b0c');
    await bg.blur();
    const dialogWith = (text: string) => op.page.getByRole('dialog').filter({ hasText: text });

    // The save names an event that no longer exists (deleted in another console): the real
    // server answers 404 and writes nothing, the console says the data might be old.
    await op.page.route('**/api/events/colors', async (route) => {
      const body = route.request().postDataJSON() as { eventIds: string[] };
      await route.continue({ postData: JSON.stringify({ ...body, eventIds: [...body.eventIds, 'vanished-event'] }) });
    });
    await op.page.getByTestId('update-event').click();
    const old = dialogWith(MSG.events.eventDataOld);
    await old.waitFor();
    await old.getByRole('button', { name: 'Close' }).click();
    await old.waitFor({ state: 'hidden' });
    expect((await stored()).theme.backgroundColor).toBe(before);
    await op.page.unroute('**/api/events/colors');

    // The connection drops: 'Error trying to update the event, try again'; the form keeps its values.
    await op.page.route('**/api/events/colors', (route) => route.abort('failed'));
    await op.page.getByTestId('update-event').click();
    const retry = dialogWith(MSG.events.eventUpdateRetry);
    await retry.waitFor();
    await retry.getByRole('button', { name: 'Close' }).click();
    await retry.waitFor({ state: 'hidden' });
    expect(await bg.inputValue()).toBe('#0a0b0c');
    await op.page.unroute('**/api/events/colors');

    await op.page.getByTestId('update-event').click();
    const ok = dialogWith(MSG.template.eventSuccessfullyUpdated);
    await ok.waitFor();
    await ok.waitFor({ state: 'hidden' });
    expect((await stored()).theme.backgroundColor).toBe('#0a0b0c');
    await op.context.close();
  });
  it(
    'text settings: the Languages modal adds a required, new language and lists removals; the default or only language cannot be removed; an unexpected answer is only logged',
    { timeout: 120_000 },
    async () => {
      const op = await stack.newPage({ login: admin, path: '/' });
      // One language to start from (an earlier test may have added one).
      const event = await stored();
      const reset = (availableLanguages: string[], defaultLanguage: string) =>
        op.page.request.patch('/api/events/languages', {
          headers: { origin: stack.url },
          data: { eventIds: [event._id], languages: event.languages, availableLanguages, defaultLanguage },
        });
      // The server refuses what is not a language code (nor a former table's English name), on any way in.
      const refused = await reset(['english', 'Fr'], 'english');
      expect(refused.status()).toBe(400);
      expect(await refused.text()).toContain(MSG.template.notALanguageCode);
      expect((await reset(['english'], 'english')).status()).toBe(200);
      await op.page.goto('/template/Languages');
      const table = op.page.getByTestId('languages-table');
      await table.waitFor();
      const header = (l: string) => table.getByRole('button', { name: `Remove ${l}` });
      const T = MSG.template;

      // The only language: not removable, in the table and in the modal's list.
      expect(await header('english').isDisabled()).toBe(true);
      await op.page.getByRole('button', { name: 'Language', exact: true }).click();
      const modal = op.page.getByRole('dialog').filter({ hasText: 'Languages' });
      await modal.waitFor();
      const entry = (l: string) => modal.getByTestId('language-list').locator(`[data-language="${l}"]`);
      await entry('english').getByText(T.onlyLanguageNotRemovable, { exact: true }).waitFor();
      expect(await entry('english').getByRole('button', { name: 'Remove' }).count()).toBe(0);

      // Picked from the list (by name or code), never typed: 'Fr' alone adds nothing; English is
      // there already (as 'english'), so the list does not offer it.
      const picker = modal.getByRole('combobox');
      const add = modal.getByRole('button', { name: 'Add', exact: true });
      await add.click();
      await modal.getByText(T.pickLanguage, { exact: true }).waitFor();
      await picker.fill('Fr');
      await op.page.getByRole('option', { name: 'French (fr)', exact: true }).waitFor();
      await add.click();
      await modal.getByText(T.pickLanguage, { exact: true }).waitFor();
      await picker.fill('English');
      await op.page.getByRole('option', { name: 'British English (en-GB)', exact: true }).waitFor();
      expect(await op.page.getByRole('option', { name: 'English (en)', exact: true }).count()).toBe(0);
      await picker.fill('french');
      await op.page.getByRole('option', { name: 'French (fr)', exact: true }).click();
      await add.click();
      await entry('fr').getByText('French (fr)').waitFor();
      await picker.fill('de');
      await op.page.getByRole('option', { name: 'German (de)', exact: true }).click();
      await add.click();
      await entry('de').waitFor();
      // Now the default is the one kept; the others can be removed from the list.
      await entry('english').getByText(T.defaultLanguageNotRemovable, { exact: true }).waitFor();
      expect(await entry('english').getByRole('button', { name: 'Remove' }).count()).toBe(0);
      expect(await entry('fr').getByRole('button', { name: 'Remove' }).count()).toBe(1);
      await stack.screenshot(op.page, 'languages-modal');
      await entry('de').getByRole('button', { name: 'Remove' }).click();
      await entry('de').waitFor({ state: 'detached' });
      await modal.getByRole('button', { name: 'Done' }).click();
      await modal.waitFor({ state: 'hidden' });
      expect(await table.locator('td[data-lang="de"]').count()).toBe(0);
      expect(await table.locator('[data-key="landing.start"] td[data-lang="fr"]').getAttribute('data-state')).toBe(
        'empty',
      );

      // The default moves to French: English becomes removable, French is not.
      expect(await header('english').isDisabled()).toBe(true);
      expect(await header('French (fr)').isDisabled()).toBe(false);
      await op.page.getByRole('combobox', { name: 'Default language' }).click();
      await op.page.getByRole('option', { name: 'Default: French (fr)' }).click();
      await expect.poll(() => header('english').isDisabled()).toBe(false);
      expect(await header('French (fr)').isDisabled()).toBe(true);
      await header('english').click();
      await expect.poll(() => table.locator('td[data-lang="english"]').count()).toBe(0);
      // French alone: the only language.
      await op.page.getByRole('button', { name: 'Language', exact: true }).click();
      await entry('fr').getByText(T.onlyLanguageNotRemovable, { exact: true }).waitFor();
      await modal.getByRole('button', { name: 'Done' }).click();
      await modal.waitFor({ state: 'hidden' });

      // An answer without the three fields (spec 2 §7, §8): 'Unexpected API response', only logged.
      const logged: string[] = [];
      op.page.on('console', (m) => m.type() === 'error' && logged.push(m.text()));
      await op.page.route('**/api/events/languages', (route) =>
        route.fulfill({ status: 200, json: { languages: {}, availableLanguages: ['french'] } }),
      );
      await op.page.getByTestId('update-event').click();
      await expect.poll(() => logged.some((l) => l.includes(T.unexpectedApiResponse))).toBe(true);
      expect(await op.page.getByRole('dialog').count()).toBe(0);
      await op.page.unroute('**/api/events/languages');

      await op.page.getByTestId('update-event').click();
      await op.page.getByText(T.eventSuccessfullyUpdated).waitFor();
      const after = await stored();
      expect(after.availableLanguages).toEqual(['fr']);
      expect(after.defaultLanguage).toBe('fr');
      expect((await reset(['english'], 'english')).status()).toBe(200);
      await op.context.close();
    },
  );

  it('languages: the import success popup closes itself after 1.5 s, like every template success', async () => {
    const op = await stack.newPage({ login: admin, path: '/template/Languages' });
    await op.page.getByTestId('languages-table').waitFor();
    const downloading = op.page.waitForEvent('download');
    await op.page.getByRole('button', { name: 'Export' }).click();
    const csv = await readFile(await (await downloading).path());
    const ok = op.page.getByRole('dialog').filter({ hasText: MSG.template.importSuccessful });
    await importUntil(
      op.page.locator('input[type="file"][accept=".csv,text/csv"]'),
      { name: 'same.csv', mimeType: 'text/csv', buffer: csv },
      ok,
    );
    // 1.5 s (DESIGN §6), not the 5 s of camera-config and slideshow: gone well before 5 s.
    await ok.waitFor({ state: 'hidden', timeout: 4_000 });
    await op.context.close();
  });

  it('colours: a file too large to be a colours file is refused with "Failed to Import Colors."', async () => {
    const op = await stack.newPage({ login: admin, path: '/template/colors' });
    const bg = op.page.getByLabel('Background color', { exact: true });
    await bg.waitFor();
    const before = await bg.inputValue();
    // Valid JSON with a valid colour, but 2 MB: not read.
    const text = JSON.stringify({
      colors: { theme: { backgroundColor: '#abcdef' } },
      pad: 'x'.repeat(2 * 1024 * 1024),
    });
    const big = { name: 'big-colors.json', mimeType: 'application/json', buffer: Buffer.from(text) };
    const dialog = await importColours(op.page, big, MSG.templateColors.importFailed);
    expect(await dialog.getByText(MSG.templateColors.importFailed, { exact: true }).count()).toBe(1);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await bg.inputValue()).toBe(before);
    expect(before).not.toBe('#abcdef');
    await op.context.close();
  });

  it('after a reload, a template screen shows its spinner, not a form of defaults, until the selected event has loaded', async () => {
    const op = await stack.newPage({ login: admin, path: '/template/colors' });
    const bg = op.page.getByLabel('Background color', { exact: true });
    await bg.waitFor();
    const stored = await bg.inputValue();
    // The session's current event answers 1.5 s late: the selection is unknown until then.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await op.page.route(
      (url) => url.pathname === '/api/events/stadiumcam',
      async (route) => {
        await held;
        await route.continue();
      },
    );
    await op.page.reload();
    await op.page.locator('.mantine-Loader-root').waitFor();
    await op.page.waitForTimeout(1500);
    expect(await bg.count()).toBe(0);
    expect(await op.page.locator('.mantine-Loader-root').count()).toBeGreaterThan(0);
    release();
    await bg.waitFor();
    expect(await bg.inputValue()).toBe(stored);
    expect(stored).not.toBe('');
    await op.context.close();
  });

  it('graphics: a spinner shows on Update Event while the event updates', async () => {
    const op = await stack.newPage({ login: admin, path: '/template/graphics' });
    const update = op.page.getByTestId('update-event');
    const spinner = update.locator('.mantine-Loader-root');
    await expect.poll(() => update.isEnabled()).toBe(true);
    expect(await spinner.count()).toBe(0);
    // The save is held until the spinner has been seen.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await op.page.route('**/api/events/images', async (route) => {
      await held;
      await route.continue();
    });
    await update.click();
    await spinner.waitFor();
    expect(await update.getAttribute('data-loading')).toBe('true');
    await stack.screenshot(op.page, 'graphics-updating');
    release();
    await op.page.getByText(MSG.template.eventSuccessfullyUpdated).waitFor();
    await spinner.waitFor({ state: 'detached' });
    expect(await update.getAttribute('data-loading')).toBeNull();
    await op.context.close();
  });

  it("attendee app: the fan's language choice shows that language's texts (the chosen language wins) and is kept", async () => {
    const op = await stack.newPage({ login: admin, path: '/' });
    const event = await stored();
    const languages = structuredClone(event.languages) as Record<string, { texts: Record<string, string> }>;
    languages['landing.start'].texts.french = 'Commencer';
    languages['landing.title'].texts.french = 'Souriez, vous êtes filmé !';
    // 'landing.subtitle' has no French text: the default language's text stands in.
    languages['landing.subtitle'].texts = { english: 'Tonight on the big screen' };
    const save = await op.page.request.patch('/api/events/languages', {
      headers: { origin: stack.url },
      data: {
        eventIds: [event._id],
        languages,
        availableLanguages: ['english', 'french'],
        defaultLanguage: 'english',
      },
    });
    expect(save.status()).toBe(200);
    await op.context.close();

    const fan = await stack.newPage({ path: '/app/', viewport: { width: 390, height: 844 } });
    const choice = fan.page.getByTestId('language');
    await choice.waitFor();
    expect(await choice.inputValue()).toBe('english');
    const start = languages['landing.start'].texts.english;
    await fan.page.getByRole('button', { name: start, exact: true }).waitFor();
    await choice.selectOption('french');
    await fan.page.getByRole('button', { name: 'Commencer', exact: true }).waitFor();
    await fan.page.getByRole('heading', { name: 'Souriez, vous êtes filmé !' }).waitFor();
    expect(await fan.page.locator('[data-screen="landing"] p.muted').first().textContent()).toBe(
      'Tonight on the big screen',
    );
    // <html lang> is the language's BCP 47 tag (screen readers pick their voice by it).
    expect(await fan.page.evaluate('document.documentElement.lang')).toBe('fr');
    // The choice is kept on the phone: the next screens and a reopened app speak French.
    await fan.page.getByRole('button', { name: 'Commencer', exact: true }).click();
    await fan.page.locator('[data-screen="seat"]').waitFor();
    await fan.page.goto('/app/');
    await fan.page.getByRole('button', { name: 'Commencer', exact: true }).waitFor();
    expect(await choice.inputValue()).toBe('french');
    await stack.screenshot(fan.page, 'attendee-french');
    await fan.context.close();
  });

  it('attendee app: the queue screen shows the position and camera from the camera host, then the watermarked photo; the album lists the fan photos', async () => {
    // A fan id issued by the server, as the app gets it (docs/security.md §14).
    const fanIdent = await newFan(stack.url);
    const fanId = fanIdent.userId;
    // The event's watermark, uploaded and saved as the Graphics page does.
    const op = await stack.newPage({ login: admin, path: '/' });
    const wm = await op.page.request.post(`/api/events/${slugDate}/images/watermark`, {
      headers: { origin: stack.url },
      multipart: { image: await image(1080, 1080, 'png') },
    });
    expect(wm.status()).toBe(200);
    const watermark = (await wm.json()) as { url: string; rawUrl: string };
    const event = await stored();
    const saved = await op.page.request.patch('/api/events/images', {
      headers: { origin: stack.url },
      data: {
        eventIds: [event._id],
        images: { ...event.images, watermarkUrl: watermark.url, watermarkRawUrl: watermark.rawUrl },
        venueType: event.venueType,
      },
    });
    expect(saved.status()).toBe(200);
    await op.context.close();

    // A camera host with one camera and someone already waiting.
    const pool = new SocketPool(() => stack.url);
    const host = await pool.host('host-e2e-queue', [{ camera: 'qe1' }], stack.config.deviceToken);
    const queue = ['fan-ahead'];
    host.emit('report', { camera: 'qe1', queue: [...queue] });
    host.on('queue join', ({ camera, userId }, ack) => {
      queue.push(userId);
      host.emit('report', { camera, queue: [...queue] });
      ack({ ok: true, position: queue.length });
    });
    try {
      const fan = await stack.newPage({ path: '/app/', viewport: { width: 390, height: 844 }, fan: fanIdent });
      // No photo yet: the album says so.
      await fan.page.goto('/app/#/album');
      await fan.page.locator('[data-screen="album"]').getByText('No photos yet.').waitFor();

      // The fan's seat joins the queue (as the seat screen does) and the phone shows the queue.
      const seat = { seatType: 'section', section: '104', row: 'F', seat: '12' };
      const joinedAt = new Date().toISOString();
      const joined = await fetch(`${stack.url}/api/public/queue`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-fan-token': fanIdent.fanToken },
        body: JSON.stringify({ slugDate, userId: fanId, seat }),
      });
      expect(joined.status).toBe(200);
      const ticket = (await joined.json()) as { camera: string; position: number };
      expect(ticket).toEqual({ camera: 'qe1', position: 2 });
      await fan.page.evaluate(
        `localStorage.setItem('stadiumcam.ticket', ${JSON.stringify(JSON.stringify({ slugDate, ...ticket, joinedAt, seat }))})`,
      );
      await fan.page.goto('/app/#/queue');
      const queueScreen = fan.page.locator('[data-screen="queue"]');
      const position = fan.page.getByTestId('queue-position');
      // Second in the host's queue: only the fan being photographed is ahead.
      // expect.poll gives up after 1 s by default: a busy CI machine may take longer to draw it.
      await expect.poll(() => position.textContent(), { timeout: 15_000 }).toBe('Get ready, you are next!');
      await queueScreen.getByText('Camera: qe1', { exact: true }).waitFor();
      await stack.screenshot(fan.page, 'attendee-queue');
      // The fan ahead had their turn: the host's report makes it this fan's, without a reload.
      queue.shift();
      host.emit('report', { camera: 'qe1', queue: [...queue] });
      await expect.poll(() => position.textContent(), { timeout: 15_000 }).toBe('Look at camera qe1 now!');

      // The photo arrives: the app moves on to it and draws the watermark over the raw photo.
      const { raw: rawUrl } = await photoOf(fanId, 'p1');
      // Stored here without a host's upload: tell the phone on its stream as the ingest does (issue 30 §3).
      stack.app.deps.attendeeFeed.toFan(fanId, 'photo', { _id: `${fanId}-p1` });
      await fan.page.locator('[data-screen="photo"]').waitFor({ timeout: 15_000 });
      expect(await fan.page.getByTestId('photo').getAttribute('src')).toBe(rawUrl);
      const mark = fan.page.getByTestId('watermark');
      expect(await mark.getAttribute('src')).toBe(watermark.url);
      await expect
        .poll(() => mark.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth), {
          timeout: 15_000,
        })
        .toBeGreaterThan(0);
      await stack.screenshot(fan.page, 'attendee-photo-watermark');

      // A composite made by the server already carries the watermark: the app draws none.
      const composite = await photoOf(fanId, 'p2', true);
      await fan.page.goto('/app/#/album');
      const thumbs = fan.page.locator('[data-screen="album"] .photo-grid img');
      await expect.poll(() => thumbs.count(), { timeout: 15_000 }).toBe(2);
      // Newest first, the framed one as framed.
      expect(await thumbs.nth(0).getAttribute('src')).toBe(composite.shared);
      expect(await thumbs.nth(1).getAttribute('src')).toBe(rawUrl);
      await stack.screenshot(fan.page, 'attendee-album');
      await thumbs.nth(0).click();
      await fan.page.locator('[data-screen="photo"]').waitFor();
      expect(await fan.page.getByTestId('photo').getAttribute('src')).toBe(composite.shared);
      expect(await fan.page.getByTestId('watermark').count()).toBe(0);
      // Another fan's album does not list them.
      const other = await stack.newPage({ path: '/app/#/album', viewport: { width: 390, height: 844 } });
      await other.page.locator('[data-screen="album"]').getByText('No photos yet.').waitFor();
      await other.context.close();
      await fan.context.close();
    } finally {
      pool.closeAll();
    }

    /** A photo of the fan (as a camera host's upload stores it); `composite`: an overlay share. */
    async function photoOf(userId: string, id: string, composite?: true): Promise<{ raw: string; shared: string }> {
      const key = `${slugDate}/${userId}-${id}`;
      const jpeg = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#1d4e89' } })
        .jpeg()
        .toBuffer();
      const raw = await stack.app.deps.media.put(`${key}/raw.jpg`, jpeg);
      const shared = composite ? await stack.app.deps.media.put(`${key}/shared.jpg`, jpeg) : raw;
      await makePhoto(stack.app.deps.db, {
        id: `${userId}-${id}`,
        slug: slugDate.replace(/-\d{4}-\d{2}-\d{2}$/, ''),
        slugDate,
        userId,
        camera: 'qe1',
        section: '104',
        row: 'F',
        seat: '12',
        date: new Date(),
        thumbUri: raw,
        smallUri: raw,
        rawCroppedUri: raw,
        sharedUri: shared,
        ...(composite ? { overlay: 'frame-1' } : {}),
      });
      return { raw, shared };
    }
  });

  it('attendee app: opening it and moving to the next screen records page views for the analytics', async () => {
    const op = await stack.newPage({ login: admin, path: '/' });
    type Web = { pageViews: number; panels: Record<string, { x: string; count: number }[] | null> };
    const web = async () => {
      const res = await op.page.request.get(`/api/analytics/${slugDate}/google`);
      expect(res.status()).toBe(200);
      return (await res.json()) as Web;
    };
    const countOf = (w: Web, panel: string, x: string) => w.panels[panel]?.find((c) => c.x === x)?.count ?? 0;
    const before = await web();

    const fan = await stack.newPage({ path: '/app/', viewport: { width: 390, height: 844 } });
    await fan.page.locator('[data-screen="landing"]').waitFor();
    await expect.poll(async () => countOf(await web(), 'page', 'welcome')).toBe(countOf(before, 'page', 'welcome') + 1);
    await fan.page.locator('[data-screen="landing"] button.primary').click();
    await fan.page.locator('[data-screen="seat"]').waitFor();
    await expect.poll(async () => countOf(await web(), 'page', 'seat')).toBe(countOf(before, 'page', 'seat') + 1);

    const after = await web();
    expect(after.pageViews).toBe(before.pageViews + 2);
    // What the browser told: its language, device class and screen size.
    const language = await fan.page.evaluate<string>('navigator.language');
    expect(countOf(after, 'language', language.split('-')[0].toLowerCase())).toBe(
      countOf(before, 'language', language.split('-')[0].toLowerCase()) + 2,
    );
    expect(countOf(after, 'device', 'desktop')).toBe(countOf(before, 'device', 'desktop') + 2);
    const size = await fan.page.evaluate<string>('`${screen.width}x${screen.height}`');
    expect(countOf(after, 'screen', size)).toBe(countOf(before, 'screen', size) + 2);
    // Back to the landing screen: one more view; re-renders of the same screen add none.
    await fan.page.goBack();
    await fan.page.locator('[data-screen="landing"]').waitFor();
    await expect.poll(async () => (await web()).pageViews).toBe(before.pageViews + 3);
    await fan.context.close();
    await op.context.close();
  });
  it('the page is its first path segment: /template/colors and /template/share keep the selector’s unapplied choice (spec 1 §2)', async () => {
    const op = await stack.newPage({ login: admin, path: '/template/share' });
    const p = op.page;
    await p.getByTestId('template-page').waitFor();
    await p.getByRole('link', { name: 'Colors', exact: true }).click();
    await p.waitForURL(/\/template\/colors$/);
    await p.getByLabel('Background color', { exact: true }).waitFor();
    const selector = eventSelector(p);
    await selector.open();
    const modal = p.getByRole('dialog', { name: 'Select events' });
    const row = selector.row(slugDate);
    await row.waitFor();
    const { ticked } = selector;
    // Today's event is the applied selection; the operator unticks it and applies nothing.
    await expect.poll(ticked).toEqual([slugDate]);
    await row.click();
    await expect.poll(ticked).toEqual([]);
    // Back to /template/share: the same page, the modal and its unapplied choice stay.
    await p.goBack();
    await p.waitForURL(/\/template\/share$/);
    await modal.waitFor();
    expect(await ticked()).toEqual([]);
    await op.context.close();
  });
});
