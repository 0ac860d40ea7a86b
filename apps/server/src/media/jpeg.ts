/**
 * A camera's JPEG with its metadata replaced, without decoding it: the scans are copied as they
 * are, and the only Exif is the capture time. At 10 photos a second, re-encoding the raw
 * rendition was the largest image cost of the ingest (docs/bench-realtime.md); this keeps the
 * camera's own quality too. Only for a JPEG already upright and without a colour profile
 * (images.ts decides); anything this parser does not expect returns null, and the caller
 * re-encodes instead.
 */
export function replaceJpegMetadata(jpeg: Buffer, stamp: string): Buffer | null {
  if (jpeg.length < 4 || jpeg[0] !== 0xff || jpeg[1] !== 0xd8) return null;
  const kept: Buffer[] = [];
  let i = 2;
  while (i + 4 <= jpeg.length) {
    if (jpeg[i] !== 0xff) return null;
    const marker = jpeg[i + 1];
    if (marker === 0xff) {
      i++; // fill byte
      continue;
    }
    const end = i + 2 + jpeg.readUInt16BE(i + 2);
    if (marker < 0xc0 || marker === 0xd8 || marker === 0xd9 || (marker >= 0xd0 && marker <= 0xd7) || end > jpeg.length)
      return null;
    if (marker === 0xda) {
      const eoi = endOfImage(jpeg, end);
      if (eoi < 0) return null;
      const exif = exifSegment(stamp);
      // JFIF wants its APP0 first; the Exif segment follows it.
      const at = kept[0]?.[1] === 0xe0 ? 1 : 0;
      kept.splice(at, 0, exif);
      // Nothing after the end of the image is kept either.
      return Buffer.concat([jpeg.subarray(0, 2), ...kept, jpeg.subarray(i, eoi)]);
    }
    // APP0 (JFIF) and APP14 (Adobe colour transform) describe the pixels; every other APPn
    // (Exif, XMP, ICC, IPTC, makers' notes) and comments go.
    const isApp = marker >= 0xe0 && marker <= 0xef;
    if ((!isApp || marker === 0xe0 || marker === 0xee) && marker !== 0xfe) kept.push(jpeg.subarray(i, end));
    i = end;
  }
  return null;
}

/** The offset just past EOI: entropy-coded data (with its stuffed FF 00 and restart markers) and the segments between scans. */
function endOfImage(jpeg: Buffer, from: number): number {
  let i = from;
  for (;;) {
    i = jpeg.indexOf(0xff, i);
    if (i < 0 || i + 1 >= jpeg.length) return -1;
    const marker = jpeg[i + 1];
    if (marker === 0x00 || marker === 0xff || (marker >= 0xd0 && marker <= 0xd7)) {
      i += marker === 0xff ? 1 : 2;
      continue;
    }
    if (marker === 0xd9) return i + 2;
    // A segment between the scans of a progressive JPEG (DHT, DQT, SOS, DRI): skip its length.
    if (i + 4 > jpeg.length) return -1;
    i += 2 + jpeg.readUInt16BE(i + 2);
  }
}

/** APP1 with a big-endian TIFF: IFD0 points to an Exif IFD holding DateTimeOriginal and OffsetTimeOriginal (UTC). */
function exifSegment(stamp: string): Buffer {
  const tiff = Buffer.alloc(83);
  tiff.write('MM', 0, 'latin1');
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4);
  // IFD0 at 8: one entry, ExifIFDPointer (LONG) → 26.
  tiff.writeUInt16BE(1, 8);
  entry(tiff, 10, 0x8769, 4, 1, 26);
  tiff.writeUInt32BE(0, 22);
  // Exif IFD at 26: two ASCII entries whose values follow at 56 and 76.
  tiff.writeUInt16BE(2, 26);
  entry(tiff, 28, 0x9003, 2, 20, 56);
  entry(tiff, 40, 0x9011, 2, 7, 76);
  tiff.writeUInt32BE(0, 52);
  tiff.write(stamp.slice(0, 19), 56, 'latin1');
  tiff.write('+00:00', 76, 'latin1');
  const head = Buffer.alloc(10);
  head.writeUInt16BE(0xffe1, 0);
  head.writeUInt16BE(2 + 6 + tiff.length, 2);
  head.write('Exif', 4, 'latin1');
  return Buffer.concat([head, tiff]);
}

function entry(b: Buffer, at: number, tag: number, type: number, count: number, value: number): void {
  b.writeUInt16BE(tag, at);
  b.writeUInt16BE(type, at + 2);
  b.writeUInt32BE(count, at + 4);
  b.writeUInt32BE(value, at + 8);
}
