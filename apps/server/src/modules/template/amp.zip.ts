import { crc32, inflateRawSync } from 'node:zlib';
import { AppError, ERR } from '../../errors.ts';

/**
 * A strict reader for uploaded .amp archives (DESIGN §10). It reads the central directory
 * itself so every hostile trick is seen before anything is inflated: path traversal, absolute
 * names, links, encryption, ZIP64, declared sizes over the limits, bombs (inflation stops at
 * the declared size) and CRC mismatches. It only returns buffers; callers write nothing until
 * the whole archive has been read.
 */
export const AMP_LIMITS = {
  entries: 300,
  /** One entry, uncompressed. */
  entryBytes: 20 * 1024 * 1024,
  /** All entries together, uncompressed. */
  totalBytes: 200 * 1024 * 1024,
  /** Uncompressed/compressed above this is a bomb, not a template. */
  ratio: 200,
};

/** Every refusal has the spec's text; the reason travels in details. */
export const badAmp = (why: string) => new AppError(422, ERR.templateParts.invalidAmp, { details: [why] });
const bad = badAmp;

const EOCD = 0x06054b50;
const CEN = 0x02014b50;
const LOC = 0x04034b50;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const S_IFREG = 0o100000;

/** A name is a relative path of plain segments: no '..', no absolute or drive paths, no NUL. */
export function isSafeEntryName(name: string): boolean {
  if (!name || name.length > 300 || name.includes('\\') || [...name].some((c) => c.charCodeAt(0) < 32)) return false;
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return false;
  return name.split('/').every((seg, i, all) => (seg === '' ? i === all.length - 1 : seg !== '.' && seg !== '..'));
}

export function readAmpZip(buf: Buffer, limits = AMP_LIMITS): Map<string, Buffer> {
  // The end-of-central-directory record sits in the last 22 + 65535 (comment) bytes.
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw bad('not a zip archive');
  const count = buf.readUInt16LE(eocd + 10);
  const cdSize = buf.readUInt32LE(eocd + 12);
  const cdOffset = buf.readUInt32LE(eocd + 16);
  if (count === 0xffff || cdOffset === 0xffffffff) throw bad('ZIP64 archives are not supported');
  if (count > limits.entries) throw bad(`more than ${limits.entries} entries`);
  if (cdOffset + cdSize > eocd) throw bad('broken central directory');

  type Entry = { name: string; method: number; crc: number; csize: number; usize: number; local: number };
  const entries: Entry[] = [];
  let total = 0;
  let p = cdOffset;
  for (let n = 0; n < count; n++) {
    if (p + 46 > eocd || buf.readUInt32LE(p) !== CEN) throw bad('broken central directory');
    const madeBy = buf.readUInt16LE(p + 4) >> 8;
    const flags = buf.readUInt16LE(p + 8);
    const method = buf.readUInt16LE(p + 10);
    const crc = buf.readUInt32LE(p + 16);
    const csize = buf.readUInt32LE(p + 20);
    const usize = buf.readUInt32LE(p + 24);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const external = buf.readUInt32LE(p + 38);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    p += 46 + nameLen + extraLen + commentLen;

    if (!isSafeEntryName(name)) throw bad(`unsafe entry name "${name.slice(0, 80)}"`);
    const mode = external >>> 16;
    // Unix (3) and macOS (19) record the file type in the high bits of the external attributes.
    if ((madeBy === 3 || madeBy === 19) && mode && (mode & S_IFMT) !== S_IFREG && !name.endsWith('/')) {
      throw bad((mode & S_IFMT) === S_IFLNK ? `link entry "${name.slice(0, 80)}"` : `special entry "${name}"`);
    }
    if (flags & 1) throw bad('encrypted entries are not supported');
    if (method !== 0 && method !== 8) throw bad(`unsupported compression in "${name}"`);
    if (csize === 0xffffffff || usize === 0xffffffff) throw bad('ZIP64 entries are not supported');
    if (usize > limits.entryBytes) throw bad(`entry "${name.slice(0, 80)}" is too large`);
    total += usize;
    if (total > limits.totalBytes) throw bad('the archive is too large when unpacked');
    if (csize > 0 && usize / csize > limits.ratio) throw bad(`entry "${name.slice(0, 80)}" is compressed too much`);
    if (name.endsWith('/')) continue;
    if (entries.some((e) => e.name === name)) throw bad(`duplicate entry "${name}"`);
    entries.push({ name, method, crc, csize, usize, local });
  }

  const out = new Map<string, Buffer>();
  for (const e of entries) {
    if (e.local + 30 > buf.length || buf.readUInt32LE(e.local) !== LOC) throw bad(`broken entry "${e.name}"`);
    const start = e.local + 30 + buf.readUInt16LE(e.local + 26) + buf.readUInt16LE(e.local + 28);
    if (start + e.csize > buf.length) throw bad(`truncated entry "${e.name}"`);
    const raw = buf.subarray(start, start + e.csize);
    let data: Buffer;
    if (e.method === 0) {
      data = raw;
    } else {
      try {
        // Never inflate past what the directory declared: a bomb stops here.
        data = inflateRawSync(raw, { maxOutputLength: Math.max(1, e.usize) });
      } catch {
        throw bad(`entry "${e.name}" does not unpack to its declared size`);
      }
    }
    if (data.length !== e.usize) throw bad(`entry "${e.name}" does not unpack to its declared size`);
    if (crc32(data) !== e.crc) throw bad(`entry "${e.name}" is corrupt`);
    out.set(e.name, data);
  }
  return out;
}
