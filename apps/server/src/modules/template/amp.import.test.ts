import { readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Script } from 'node:vm';
import { crc32 } from 'node:zlib';
import type { Archiver } from 'archiver';
import sharp from 'sharp';
import { beforeAll, expect, it } from 'vitest';
import {
  AMP_FORMAT,
  AMP_FORMAT_VERSION,
  DEFAULT_COLORS,
  MSG,
  defaultLanguageTable,
  eventsRoutes,
  overlayRoutes,
  partRoutes,
  templateRoutes,
  type RouteDef,
} from '@stadiumcam/contract';
import { describeEachDb } from '../../test/harness.ts';
import { listenUrl } from '../../test/realtime.ts';
import { newFan } from '../attendee/fan.test-util.ts';
import { MEDIA_CSP } from '../../media/media-guard.ts';

const require = createRequire(import.meta.url);
const archiver = require('archiver') as { create: (f: string, o: Record<string, unknown>) => Archiver };

async function zip(files: Record<string, Buffer | string>): Promise<Buffer> {
  const z = archiver.create('zip', { zlib: { level: 1 } });
  const chunks: Buffer[] = [];
  z.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise((resolve, reject) => z.on('end', resolve).on('error', reject));
  for (const [name, data] of Object.entries(files)) z.append(data, { name });
  await z.finalize();
  await done;
  return Buffer.concat(chunks);
}

/** An .amp as the export writes it: the manifest, event.json and media/<key> entries. */
const amp = (parts: Record<string, unknown>, media: Record<string, Buffer> = {}) =>
  zip({
    'manifest.json': JSON.stringify({
      format: AMP_FORMAT,
      formatVersion: AMP_FORMAT_VERSION,
      appVersion: 'test',
      exportedAt: new Date().toISOString(),
      slugDate: 'stadiumcam',
      options: { triviaEnabled: true, disabledEventFields: [] },
      media: Object.keys(media),
    }),
    'event.json': JSON.stringify(parts),
    ...Object.fromEntries(Object.entries(media).map(([key, data]) => [`media/${key}`, data])),
  });

const u32le = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
};

/** A real PNG whose tEXt chunk holds a script tag (what an HTML sniffer would run). */
async function pngWithScript(): Promise<Buffer> {
  const png = await sharp({ create: { width: 64, height: 64, channels: 4, background: '#2b8a3e' } })
    .png()
    .toBuffer();
  const type = Buffer.from('tEXt');
  const data = Buffer.from('Comment\0<html><script>alert(document.cookie)</script></html>', 'latin1');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([type, data])));
  // After the signature (8) and IHDR (25): a chunk decoders skip.
  return Buffer.concat([png.subarray(0, 33), length, type, data, crc, png.subarray(33)]);
}

/**
 * A real WebP whose header parses as JavaScript: its RIFF size is 0x2060, so the file opens with
 * RIFF and a backtick (a tagged template in JavaScript); the image and a chunk the decoder skips
 * (padding it to that size) sit in the template, and a backtick after the RIFF closes it, so
 * the rest of the file is script: `<script src>` would run it.
 */
async function webpThatIsJavaScript(): Promise<Buffer> {
  const simple = await sharp({ create: { width: 64, height: 64, channels: 4, background: '#1c7ed6' } })
    .webp({ lossless: true })
    .toBuffer();
  const vp8l = simple.subarray(12);
  const size = 0x2060;
  const junk = size - 4 - vp8l.length - 8;
  const body = Buffer.concat([Buffer.from('WEBP'), vp8l, Buffer.from('JUNK'), u32le(junk), Buffer.alloc(junk, 0x20)]);
  expect(body.length).toBe(size);
  expect(body.includes('`') || body.includes('${')).toBe(false);
  return Buffer.concat([Buffer.from('RIFF'), u32le(size), body, Buffer.from('`;globalThis.polyglotRan=1//')]);
}

describeEachDb('.amp import: images re-encoded, the screens rules, the follow-up (issue 27 §1, §2)', (t) => {
  let url = '';
  let cookie = '';
  let templateId = '';
  beforeAll(async () => {
    url = await listenUrl(t());
    cookie = await t().adminCookie();
    templateId = (await t().call(eventsRoutes.get, { cookie, params: { slugDate: 'stadiumcam' } })).body._id;
  });
  const send = async (route: string, form: FormData) => {
    const res = await fetch(`${url}${route}`, { method: 'POST', headers: { cookie, origin: url }, body: form });
    return { status: res.status, body: (await res.json().catch(() => undefined)) as any };
  };
  const importAmp = (data: Buffer, name = 'x.amp') => {
    const form = new FormData();
    form.append('eventIds', JSON.stringify([templateId]));
    form.append('file', new Blob([data], { type: 'application/octet-stream' }), name);
    return send('/api/events/import', form);
  };
  const template = async () =>
    (await t().call(eventsRoutes.get, { cookie, params: { slugDate: 'stadiumcam' } })).body as Record<string, any>;
  /** Every file under the media folder (relative names). */
  const mediaFiles = async () =>
    (await readdir(t().config.mediaDir, { recursive: true, withFileTypes: true }))
      .filter((e) => e.isFile())
      .map((e) => path.relative(t().config.mediaDir, path.join(e.parentPath, e.name)))
      .sort();

  it('stores every imported image decoded and re-encoded under a name the server chooses; a polyglot is served as pixels only', async () => {
    const png = await pngWithScript();
    const webp = await webpThatIsJavaScript();
    // The fixtures are what they claim: images to sharp, a page or a script to a browser.
    expect((await sharp(png).metadata()).format).toBe('png');
    expect((await sharp(webp).metadata()).format).toBe('webp');
    expect(png.includes('<script>')).toBe(true);
    // Compiled, not run: the bytes are a script.
    expect(() => new Script(webp.toString('latin1'))).not.toThrow();

    const res = await importAmp(
      await amp(
        {
          images: {
            seoUrl: '/media/p.html',
            seoRawUrl: '/media/p.html',
            srsIconUrl: '/media/x.js',
            srsIconRawUrl: '/media/x.js',
          },
          venueType: 'arena',
        },
        { 'p.html': png, 'x.js': webp },
      ),
    );
    expect(res).toEqual({ status: 200, body: { ok: true, eventIds: [templateId] } });
    const { images, venueType } = await template();
    expect(venueType).toBe('arena');
    expect(images.seoUrl).toMatch(/^\/media\/imports\/[a-z0-9-]+\/images\/seo-[0-9a-f]{16}\.png$/);
    expect(images.seoRawUrl).toMatch(/^\/media\/imports\/[a-z0-9-]+\/images\/seo-[0-9a-f]{16}-raw\.png$/);
    expect(images.srsIconUrl).toMatch(/^\/media\/imports\/[a-z0-9-]+\/images\/srsIcon-[0-9a-f]{16}\.webp$/);
    expect(images.srsIconRawUrl).toMatch(/^\/media\/imports\/[a-z0-9-]+\/images\/srsIcon-[0-9a-f]{16}-raw\.webp$/);
    for (const [field, type] of [
      ['seoUrl', 'image/png'],
      ['seoRawUrl', 'image/png'],
      ['srsIconUrl', 'image/webp'],
      ['srsIconRawUrl', 'image/webp'],
    ]) {
      const file = await fetch(`${url}${images[field]}`);
      const bytes = Buffer.from(await file.arrayBuffer());
      expect([file.status, file.headers.get('content-type')], field).toEqual([200, type]);
      expect(file.headers.get('x-content-type-options'), field).toBe('nosniff');
      expect(file.headers.get('content-security-policy'), field).toBe(MEDIA_CSP);
      // The same pixels, none of the script.
      expect(bytes.includes('script'), field).toBe(false);
      expect(bytes.includes('polyglotRan'), field).toBe(false);
      expect((await sharp(bytes).metadata()).width, field).toBe(64);
    }
    // No entry name of the archive is a stored name.
    expect((await mediaFiles()).filter((f) => /\.(html|js)$/.test(f))).toEqual([]);
  });

  it('/media answers only images and videos, never sniffed, never a page', async () => {
    const media = t().app.deps.media;
    // Files of other types, as an import stored them before (or a future bug): never served.
    await media.put('legacy/p.html', Buffer.from('<script>alert(1)</script>'));
    await media.put('legacy/x.js', Buffer.from('alert(1)'));
    await media.put('legacy/i.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'));
    await media.put('legacy/ok.png', await pngWithScript());
    for (const key of ['legacy/p.html', 'legacy/x.js', 'legacy/i.svg', 'legacy/p%2ehtml', 'legacy/p.html?.png']) {
      const res = await fetch(`${url}/media/${key}`);
      expect([res.status, await res.json()], key).toEqual([404, { error: MSG.common.resourceNotFound }]);
    }
    const ok = await fetch(`${url}/media/legacy/ok.png`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('image/png');
    expect(ok.headers.get('x-content-type-options')).toBe('nosniff');
    expect(ok.headers.get('content-security-policy')).toBe(MEDIA_CSP);
    expect(ok.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(ok.headers.get('content-disposition')).toBeNull();
  });

  it('refuses an import for each kind of value a screen refuses, with the screen text, and writes nothing', async () => {
    const languages = (text: string) => {
      const table = defaultLanguageTable();
      table['meta.title'].texts.english = text;
      return { languages: table, availableLanguages: ['english'], defaultLanguage: 'english' };
    };
    const slideshow = {
      transitionTime: 5000,
      transitionDuration: 1000,
      animation: 'ease-in-out',
      backgroundColor: '#ffffff',
      slideshowBannerUrl: 'javascript:alert(1)',
    };
    const overlay = {
      storageKey: 'stadiumcam/overlays/evil.png',
      urlFullSize: 'https://evil.example/o.png',
      urlRaw: 'https://evil.example/o.png',
      urlMediumSize: 'https://evil.example/o.png',
      disabled: false,
      deleted: false,
      sections: ['*'],
    };
    const { theme, iconColor, emailSettings } = DEFAULT_COLORS;
    type Case = {
      name: string;
      route: RouteDef;
      body: Record<string, unknown>;
      parts: Record<string, unknown>;
      /** The catalogue text the screen's answer holds, where a case names it. */
      error?: string;
    };
    const cases: Case[] = [
      { name: 'a javascript: URL', route: partRoutes.slideshow, body: { slideshow }, parts: { slideshow } },
      {
        name: 'an image on another site',
        route: templateRoutes.images,
        body: { images: { seoUrl: 'https://evil.example/x.png' }, venueType: 'stadium' },
        parts: { images: { seoUrl: 'https://evil.example/x.png' }, venueType: 'stadium' },
      },
      {
        name: 'a 5,000-character title',
        route: templateRoutes.languages,
        body: languages('x'.repeat(5000)),
        parts: languages('x'.repeat(5000)),
      },
      {
        name: 'a title over its 40 characters',
        route: templateRoutes.languages,
        body: languages('x'.repeat(41)),
        parts: languages('x'.repeat(41)),
      },
      {
        name: "a language that is not a language code ('Fr', issue 28 §4)",
        route: templateRoutes.languages,
        body: { ...languages('Title'), availableLanguages: ['english', 'Fr'] },
        parts: { ...languages('Title'), availableLanguages: ['english', 'Fr'] },
        error: MSG.template.notALanguageCode,
      },
      {
        name: 'an overlay on another site',
        route: partRoutes.overlays,
        body: { overlays: [overlay] },
        parts: { overlays: [overlay] },
      },
      {
        name: 'no share option active',
        route: partRoutes.share,
        body: { share: [{ platform: 'download', enabled: false }] },
        parts: { share: [{ platform: 'download', enabled: false }] },
      },
      {
        name: 'a geofence without its address',
        route: partRoutes.geofence,
        body: { geofence: { enabled: true, address: '', radius: 5, latitude: 1, longitude: 2, locations: [] } },
        parts: { geofence: { enabled: true, address: '', radius: 5, latitude: 1, longitude: 2, locations: [] } },
      },
      {
        name: 'a blocked seat the venue does not have',
        route: partRoutes.seatOptions,
        body: {
          seatType: [{ type: 'stand', enabled: true, forcedDisable: false, mode: 'grid' }],
          blockedSeats: [{ seatType: 'stand', section: 'Nowhere', row: 'Z', seat: '999' }],
        },
        parts: {
          seatType: [{ type: 'stand', enabled: true, forcedDisable: false, mode: 'grid' }],
          blockedSeats: [{ seatType: 'stand', section: 'Nowhere', row: 'Z', seat: '999' }],
        },
      },
      {
        name: 'a colour that is not one',
        route: templateRoutes.colors,
        body: {
          colors: { theme: { ...theme, primaryColor: 'red;x' }, iconColor, emailSettings, slideshowColor: '#000' },
        },
        parts: { theme: { ...theme, primaryColor: 'red;x' }, iconColor, emailSettings, slideshowColor: '#000' },
      },
    ];
    // A good part beside each bad one: a partial write would show.
    const good = { share: [{ platform: 'print', enabled: true }] };
    const before = await template();
    const files = await mediaFiles();
    for (const c of cases) {
      const screen = await t().call(c.route, { cookie, body: { eventIds: [templateId], ...c.body } });
      expect(screen.status, c.name).toBeGreaterThanOrEqual(400);
      if (c.error) expect(screen.body.error, c.name).toContain(c.error);
      const parts = c.route === partRoutes.share ? c.parts : { ...good, ...c.parts };
      const imported = await importAmp(await amp(parts));
      expect({ status: imported.status, error: imported.body.error }, c.name).toEqual({
        status: screen.status,
        error: screen.body.error,
      });
    }
    // An overlay whose file an upload would refuse (not 2160 px): the upload's text; the good
    // image stored before it goes again.
    const small = await sharp({ create: { width: 500, height: 500, channels: 4, background: '#00000000' } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('image', new Blob([small], { type: 'image/png' }), 'o.png');
    const upload = await send(overlayRoutes.upload.path.replace(':slugDate', 'stadiumcam'), form);
    expect(upload.body.error).toBe(MSG.templateParts.overlaySize);
    const withFile = await importAmp(
      await amp(
        {
          ...good,
          images: { seoUrl: '/media/seo.png' },
          venueType: 'stadium',
          overlays: [
            { ...overlay, urlFullSize: '/media/o.png', urlRaw: '/media/o.png', urlMediumSize: '/media/o.png' },
          ],
        },
        { 'seo.png': await pngWithScript(), 'o.png': small },
      ),
    );
    expect([withFile.status, withFile.body.error]).toEqual([upload.status, upload.body.error]);
    expect(await template()).toEqual(before);
    expect(await mediaFiles()).toEqual(files);
  });

  it('an open attendee app hears an import at once (GET /api/public/event/stream)', async () => {
    const fan = await newFan(t());
    const stop = new AbortController();
    const stream = await fetch(`${url}/api/public/event/stream?slugDate=stadiumcam`, {
      headers: fan.headers,
      signal: stop.signal,
    });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    // The stream's first line is sent at once: it is open before the import.
    while (!text.includes('\n\n')) text += decoder.decode((await reader.read()).value);
    const { theme, iconColor, emailSettings } = DEFAULT_COLORS;
    const imported = await importAmp(
      await amp({ theme: { ...theme, primaryColor: '#abcdef' }, iconColor, emailSettings, slideshowColor: '#000000' }),
    );
    expect(imported.status).toBe(200);
    while (!/event: template\ndata: .*\n\n/.test(text)) text += decoder.decode((await reader.read()).value);
    stop.abort();
    const data = JSON.parse(/event: template\ndata: (.*)\n\n/.exec(text)![1]) as { theme: Record<string, string> };
    expect(data.theme.primaryColor).toBe('#abcdef');
  });
});
