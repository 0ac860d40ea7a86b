import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import exifr from 'exifr';
import { makeRenditions } from './images.ts';
import { replaceJpegMetadata } from './jpeg.ts';

const CAPTURED = new Date('2025-06-01T19:30:05Z');
const camera = (progressive = false) =>
  sharp({ create: { width: 1200, height: 800, channels: 3, background: '#3355aa' } })
    .composite([{ input: Buffer.from('<svg width="300" height="200"><circle cx="90" cy="90" r="80"/></svg>') }])
    .jpeg({ quality: 85, progressive })
    .withExif({
      IFD0: { Make: 'Acme', Model: 'PTZ-9' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '49/1 53/1 0/1' },
    })
    .toBuffer();
/** From the first scan to the end of the image: the compressed pixels. */
const scans = (jpeg: Buffer) =>
  jpeg.subarray(jpeg.indexOf(Buffer.from([0xff, 0xda])), jpeg.lastIndexOf(Buffer.from([0xff, 0xd9])) + 2);
const tagsOf = async (jpeg: Buffer) => ((await exifr.parse(jpeg, true)) ?? {}) as Record<string, unknown>;

describe('raw rendition: the camera JPEG with only the capture time', () => {
  it('keeps the scans of a plain JPEG (baseline and progressive) and drops every tag but the capture time', async () => {
    for (const progressive of [false, true]) {
      const input = await camera(progressive);
      // Bytes after the end of the image are not published either.
      const { probe, raw, small } = await makeRenditions(
        Buffer.concat([input, Buffer.from('<html>after EOI')]),
        CAPTURED,
      );
      expect(probe.plainJpeg).toBe(true);
      expect(scans(raw).equals(scans(input))).toBe(true);
      expect(raw.includes(Buffer.from('<html>'))).toBe(false);
      // Not a second Exif segment a reader might find either: the camera's words are gone.
      for (const word of ['Acme', 'PTZ-9']) expect(raw.includes(Buffer.from(word)), word).toBe(false);
      const tags = await tagsOf(raw);
      expect(tags.DateTimeOriginal).toEqual(CAPTURED);
      expect(tags.OffsetTimeOriginal).toBe('+00:00');
      for (const k of ['Make', 'Model', 'GPSLatitude', 'GPSLatitudeRef']) expect(tags[k], k).toBeUndefined();
      const meta = await sharp(raw).metadata();
      expect([meta.width, meta.height, meta.isProgressive]).toEqual([1200, 800, progressive]);
      expect((await sharp(raw).stats()).isOpaque).toBe(true);
      expect((await sharp(small).metadata()).width).toBe(800);
    }
  });

  it('re-encodes upright what is turned, carries a colour profile or is not a JPEG', async () => {
    const turned = await sharp(await camera())
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const profiled = await sharp(await camera())
      .withIccProfile('p3')
      .toBuffer();
    const png = await sharp(await camera())
      .png()
      .toBuffer();
    for (const [input, size] of [
      [turned, [800, 1200]],
      [profiled, [1200, 800]],
      [png, [1200, 800]],
    ] as const) {
      const { probe, raw } = await makeRenditions(input, CAPTURED);
      expect(probe.plainJpeg).toBe(false);
      const meta = await sharp(raw).metadata();
      expect([meta.format, meta.width, meta.height, meta.orientation ?? 1, meta.hasProfile]).toEqual([
        'jpeg',
        ...size,
        1,
        false,
      ]);
      expect((await tagsOf(raw)).DateTimeOriginal).toEqual(CAPTURED);
    }
  });

  it('gives up (null) on what it does not expect, so the caller re-encodes', async () => {
    const input = await camera();
    const stamp = '2025:06:01 19:30:05';
    expect(replaceJpegMetadata(input, stamp)).not.toBeNull();
    expect(replaceJpegMetadata(input.subarray(0, input.length - 2), stamp)).toBeNull(); // no end of image
    expect(replaceJpegMetadata(input.subarray(0, 400), stamp)).toBeNull(); // cut in a segment
    expect(replaceJpegMetadata(Buffer.from('not a jpeg at all'), stamp)).toBeNull();
    const broken = Buffer.from(input);
    broken[2] = 0x12; // no marker where a segment starts
    expect(replaceJpegMetadata(broken, stamp)).toBeNull();
  });
});
