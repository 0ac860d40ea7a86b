import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { compositeOnto, rawLayer, type PlacedLayer } from './images.ts';

/** A photo with detail (gradients), as a camera's JPEG; `orientation` sets its Exif tag. */
async function photo(width: number, height: number, opts: { grey?: boolean; orientation?: number } = {}) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g"><stop offset="0" stop-color="#1864ab"/><stop offset="1" stop-color="#f08c00"/></linearGradient></defs>
    <rect width="${width}" height="${height}" fill="url(#g)"/><circle cx="${width / 3}" cy="${height / 2}" r="${height / 4}" fill="#2b8a3e"/></svg>`;
  let img = sharp(Buffer.from(svg));
  if (opts.grey) img = img.greyscale();
  let jpeg = img.jpeg({ quality: 92 });
  if (opts.orientation) jpeg = jpeg.withMetadata({ orientation: opts.orientation });
  return jpeg.toBuffer();
}

/** A frame with a half-transparent band and soft edges: every alpha from 0 to 255 occurs. */
async function frame(width: number, height: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><radialGradient id="r"><stop offset="0.4" stop-color="#e03131" stop-opacity="0"/><stop offset="1" stop-color="#ffd43b" stop-opacity="1"/></radialGradient></defs>
    <rect width="${width}" height="${height}" fill="url(#r)"/><rect y="${height * 0.8}" width="${width}" height="${height * 0.1}" fill="#fff" fill-opacity="0.5"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** What libvips' own composite makes of the same photo and layers: the reference. */
async function libvips(jpeg: Buffer, layers: PlacedLayer[]): Promise<Buffer> {
  return sharp(jpeg)
    .rotate()
    .composite(
      layers.map((l) => ({
        input: l.data,
        raw: { width: l.width, height: l.height, channels: 4 as const },
        left: l.left,
        top: l.top,
      })),
    )
    .jpeg({ quality: 88 })
    .toBuffer();
}

const pixels = async (jpeg: Buffer) => sharp(jpeg).toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });

/** The largest and the mean difference per channel between two JPEGs of one size. */
async function difference(a: Buffer, b: Buffer) {
  const [pa, pb] = await Promise.all([pixels(a), pixels(b)]);
  expect(pb.info).toMatchObject({ width: pa.info.width, height: pa.info.height, channels: pa.info.channels });
  let max = 0;
  let sum = 0;
  for (let i = 0; i < pa.data.length; i++) {
    const d = Math.abs(pa.data[i] - pb.data[i]);
    max = Math.max(max, d);
    sum += d;
  }
  return { max, mean: sum / pa.data.length };
}

describe('compositeOnto (a share: the overlay and the watermark on the photo)', () => {
  it('matches libvips’ composite: a stretched frame, a watermark half off the corner, a grey and a turned photo', async () => {
    const cases = [
      { name: 'colour', jpeg: await photo(640, 360), width: 640, height: 360 },
      { name: 'grey', jpeg: await photo(640, 360, { grey: true }), width: 640, height: 360 },
      // Exif orientation 6: stored 640×360, shown upright 360×640.
      { name: 'turned', jpeg: await photo(640, 360, { orientation: 6 }), width: 360, height: 640 },
    ];
    for (const c of cases) {
      const overlay = { ...(await rawLayer(await frame(400, 400), c.width, c.height, 'fill')), left: 0, top: 0 };
      const mark = await rawLayer(await frame(120, 60), 120, 60, 'contain');
      const watermark = { ...mark, left: c.width - 60, top: c.height - 30 };
      const off = { ...mark, left: -40, top: -20 };
      const ours = await compositeOnto(c.jpeg, [overlay, watermark, off]);
      expect(await sharp(ours).metadata(), c.name).toMatchObject({ format: 'jpeg', width: c.width, height: c.height });
      const d = await difference(ours, await libvips(c.jpeg, [overlay, watermark, off]));
      // Two JPEG encodes of pixels one rounding apart: a few steps at edges, a fraction on average.
      expect(d.max, c.name).toBeLessThanOrEqual(16);
      expect(d.mean, c.name).toBeLessThan(1.5);
      // And the layers are there: the frame's yellow corner, not the photo's blue.
      const { data } = await pixels(ours);
      expect(data[0], c.name).toBeGreaterThan(200);
    }
  });

  it('a fully transparent layer leaves the photo as a re-encode would; an opaque one replaces it', async () => {
    const jpeg = await photo(320, 180);
    const clear = { data: Buffer.alloc(320 * 180 * 4), width: 320, height: 180, left: 0, top: 0 };
    const plain = await sharp(jpeg).jpeg({ quality: 88 }).toBuffer();
    expect((await difference(await compositeOnto(jpeg, [clear]), plain)).max).toBe(0);
    const red = Buffer.alloc(320 * 180 * 4);
    for (let i = 0; i < red.length; i += 4) red.set([255, 0, 0, 255], i);
    const { data } = await pixels(await compositeOnto(jpeg, [{ data: red, width: 320, height: 180, left: 0, top: 0 }]));
    const centre = (90 * 320 + 160) * 3;
    expect(data[centre]).toBeGreaterThan(245);
    expect(data[centre + 1]).toBeLessThan(10);
  });

  it('refuses what is not an image, as before', async () => {
    await expect(compositeOnto(Buffer.from('not a jpeg'), [])).rejects.toThrow();
  });
});
