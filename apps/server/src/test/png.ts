import { deflateSync } from 'node:zlib';

/** A PNG chunk: length, type, data and the CRC-32 of type and data. */
function chunk(type: string, data: Buffer): Buffer {
  let crc = 0xffffffff;
  for (const byte of Buffer.concat([Buffer.from(type), data])) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  }
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const sum = Buffer.alloc(4);
  sum.writeUInt32BE((crc ^ 0xffffffff) >>> 0);
  return Buffer.concat([len, Buffer.from(type), data, sum]);
}

/**
 * A PNG whose header says 30000x30000 (2.7 GB of pixels) in a few hundred bytes: what a pixel
 * ceiling must refuse by its header, before decoding. For the server and the browser tests.
 */
export function hugePng(): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(30000, 0);
  ihdr.writeUInt32BE(30000, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(1000))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
