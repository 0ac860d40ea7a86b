import sharp, { type Metadata } from 'sharp';
import { AppError, ERR } from '../errors.ts';
import { replaceJpegMetadata } from './jpeg.ts';

/** Decoding bombs stop here: a photo above this many pixels is refused (413). */
export const MAX_INPUT_PIXELS = 40_000_000;
export const SMALL_PX = 800;
export const THUMB_PX = 300;
const ACCEPTED = new Set(['jpeg', 'png', 'webp']);

const open = (data: Buffer) => sharp(data, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' });

export type ImageProbe = {
  format: string;
  width: number;
  height: number;
  /** A JPEG already upright, in sRGB or grey, with no colour profile: its scans can be kept as they are. */
  plainJpeg: boolean;
};

/** Checks by content (never by the declared type) that `data` is a JPEG, PNG or WebP of sane size. */
export async function probeImage(data: Buffer): Promise<ImageProbe> {
  let meta: Metadata;
  try {
    meta = await open(data).metadata();
  } catch (err) {
    // A decompression bomb is "too large" (413, docs/protocol.md), not "wrong type".
    if (err instanceof Error && /pixel limit/i.test(err.message)) throw new AppError(413, ERR.security.tooManyPixels);
    throw new AppError(415, ERR.media.notAnImage);
  }
  if (!meta.format || !ACCEPTED.has(meta.format)) {
    throw new AppError(415, ERR.media.notAnImage);
  }
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (!width || !height) throw new AppError(415, ERR.media.noImageSize);
  if (width * height > MAX_INPUT_PIXELS) throw new AppError(413, ERR.security.tooManyPixels);
  const plainJpeg =
    meta.format === 'jpeg' &&
    (meta.orientation ?? 1) === 1 &&
    !meta.hasProfile &&
    (meta.space === 'srgb' || meta.space === 'b-w');
  return { format: meta.format, width, height, plainJpeg };
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The only Exif a served rendition keeps: the capture time (UTC). Pixels are turned upright,
 * so no orientation is needed; GPS, camera serials and every other tag are dropped, since
 * every rendition (the raw included) is public to whoever has its link (issue 16 §5).
 */
function captureStamp(d: Date): string {
  return `${d.getUTCFullYear()}:${pad(d.getUTCMonth() + 1)}:${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/**
 * A photo's probe (probeImage) and its three stored JPEGs, upright and carrying only the capture
 * time. The raw is the camera's JPEG with its metadata replaced when it is plain (jpeg.ts), else
 * re-encoded upright with sharp (which drops the input's metadata); small and thumb fit a box.
 * Small and thumb start with the probe, not after it: they need nothing from it, and a probe
 * waiting its turn on libuv's threads behind other photos' image work was a step of its own in
 * an upload's latency. What the probe refuses fails with the probe's error, as before.
 */
export async function makeRenditions(
  data: Buffer,
  capturedAt: Date = new Date(),
): Promise<{ probe: ImageProbe; raw: Buffer; small: Buffer; thumb: Buffer }> {
  const stamp = captureStamp(capturedAt);
  // Both from the camera's JPEG, side by side on libvips' threads: its decoder shrinks while it
  // reads (1/2, 1/4), so a thumb from it costs less than one from the small.
  const fit = (px: number, quality: number) =>
    open(data).rotate().resize(px, px, { fit: 'inside', withoutEnlargement: true }).jpeg({ quality }).toBuffer();
  const [probed, small, thumb] = await Promise.allSettled([probeImage(data), fit(SMALL_PX, 80), fit(THUMB_PX, 75)]);
  if (probed.status === 'rejected') throw probed.reason;
  const probe = probed.value;
  try {
    if (small.status === 'rejected') throw small.reason;
    if (thumb.status === 'rejected') throw thumb.reason;
    let raw = probe.plainJpeg ? replaceJpegMetadata(data, stamp) : null;
    if (!raw) {
      // Re-encoded, it gets the same one Exif segment (without it, none at all).
      const jpeg = await open(data).rotate().jpeg({ quality: 92 }).toBuffer();
      raw = replaceJpegMetadata(jpeg, stamp) ?? jpeg;
    }
    return { probe, raw, small: small.value, thumb: thumb.value };
  } catch (err) {
    if (err instanceof Error && /pixel limit/i.test(err.message)) throw new AppError(413, ERR.security.tooManyPixels);
    throw new AppError(415, ERR.media.undecodable);
  }
}

/** Raw RGBA pixels of an image resized for one photo size: what compositing needs, decoded once. */
export type RawLayer = { data: Buffer; width: number; height: number };
/** A layer and where it goes on the photo. */
export type PlacedLayer = RawLayer & { left: number; top: number };

/** Width and height as shown (Exif orientations 5–8 swap them), from the header alone. */
export async function uprightSize(photo: Buffer): Promise<{ width: number; height: number }> {
  const { width = 0, height = 0, orientation = 1 } = await open(photo).metadata();
  return orientation >= 5 ? { width: height, height: width } : { width, height };
}

/** An image resized into a box as raw RGBA: `fill` stretches (overlays), `contain` keeps its shape. */
export async function rawLayer(
  image: Buffer,
  width: number,
  height: number,
  fit: 'fill' | 'contain',
): Promise<RawLayer> {
  const { data, info } = await sharp(image, { limitInputPixels: MAX_INPUT_PIXELS })
    .resize(width, height, { fit, background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/**
 * The photo with its layers (the overlay stretched over it, the watermark in a corner) in one
 * decode and one encode. The layers are raw pixels a caller keeps per photo size, so a share
 * costs one JPEG decode and encode, not a PNG round trip of a 2160² overlay each time.
 */
export async function compositeLayers(
  photo: Buffer,
  layersFor: (size: { width: number; height: number }) => Promise<PlacedLayer[]>,
  onto: (photo: Buffer, layers: PlacedLayer[]) => Promise<Buffer> = compositeOnto,
): Promise<Buffer> {
  return onto(photo, await layersFor(await uprightSize(photo)));
}

/**
 * The pixel work of compositeLayers: what the image pool's workers run (image-pool.ts). The photo
 * is decoded upright to sRGB pixels, the layers are blended on them here and the result encoded:
 * libvips' own composite goes through premultiplied floats and cost a 1280×720 share 27 ms of CPU
 * against 16 ms this way (docs/bench-realtime.md, issue 30 §5); images.test.ts holds the result
 * to libvips' (a few steps apart at edges after the JPEG encode, under 0.5 on average).
 */
export async function compositeOnto(photo: Buffer, layers: PlacedLayer[]): Promise<Buffer> {
  const { data, info } = await open(photo)
    .rotate()
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  for (const l of layers) blendOver(data, info.width, info.height, info.channels, l);
  return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
    .jpeg({ quality: 88 })
    .toBuffer();
}

/**
 * "Over" for an opaque base: each channel moves towards the layer's by its alpha (straight, not
 * premultiplied, as sharp's raw RGBA is). Clipped to the base; transparent pixels cost one read.
 */
function blendOver(base: Uint8Array, width: number, height: number, channels: number, l: PlacedLayer): void {
  const src = l.data;
  const x0 = Math.max(0, -l.left);
  const x1 = Math.min(l.width, width - l.left);
  const y1 = Math.min(l.height, height - l.top);
  for (let y = Math.max(0, -l.top); y < y1; y++) {
    let s = (y * l.width + x0) * 4;
    let o = ((y + l.top) * width + x0 + l.left) * channels;
    for (let x = x0; x < x1; x++, s += 4, o += channels) {
      const a = src[s + 3];
      if (a === 0) continue;
      for (let c = 0; c < 3; c++) {
        // base + (src - base) * a / 255, rounded, in integers.
        const t = (src[s + c] - base[o + c]) * a + 128;
        base[o + c] += (t + (t >> 8)) >> 8;
      }
    }
  }
}

const DEMO_STYLES = [
  { name: 'demo-classic', frame: '#1c7ed6', accent: '#ffd43b', label: 'GAME DAY' },
  { name: 'demo-fanzone', frame: '#e03131', accent: '#ffffff', label: 'FAN ZONE' },
  { name: 'demo-champs', frame: '#2b8a3e', accent: '#f8f9fa', label: 'GO TEAM!' },
];

/** Three demo overlays: 2160x2160 PNG frames with a transparent centre (spec 2 §5 sizes). */
export async function demoOverlays(): Promise<{ name: string; png: Buffer }[]> {
  const S = 2160;
  const B = 120;
  const BOTTOM = 320;
  return Promise.all(
    DEMO_STYLES.map(async (s) => {
      const hole = `M${B} ${B}H${S - B}V${S - BOTTOM}H${B}Z`;
      // One even-odd path (no mask): librsvg renders it ten times faster at this size.
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${S}" height="${S}">
  <path fill-rule="evenodd" fill="${s.frame}" d="M0 0H${S}V${S}H0Z ${hole}"/>
  <path fill-rule="evenodd" fill="${s.accent}" d="M${B - 24} ${B - 24}H${S - B + 24}V${S - BOTTOM + 24}H${B - 24}Z ${hole}"/>
  <text x="${S / 2}" y="${S - 110}" font-family="DejaVu Sans, Arial, sans-serif" font-size="150" font-weight="bold" fill="${s.accent}" text-anchor="middle">${s.label}</text>
</svg>`;
      return { name: s.name, png: await sharp(Buffer.from(svg)).png({ compressionLevel: 6 }).toBuffer() };
    }),
  );
}
