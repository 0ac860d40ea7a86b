import { crc32, deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { MSG } from '@stadiumcam/contract';
import { isSafeEntryName, readAmpZip } from './amp.zip.ts';

type Entry = {
  name: string;
  data?: Buffer;
  deflate?: boolean;
  /** Overrides of the central directory: what a hostile archive declares. */
  usize?: number;
  mode?: number;
  flags?: number;
};

/** A zip written byte by byte, so tests can declare what real tools refuse to write. */
function zip(entries: Entry[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const data = e.data ?? Buffer.alloc(0);
    const body = e.deflate ? deflateRawSync(data) : data;
    const name = Buffer.from(e.name);
    const usize = e.usize ?? data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(e.flags ?? 0, 6);
    local.writeUInt16LE(e.deflate ? 8 : 0, 8);
    local.writeUInt32LE(crc32(data), 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(usize, 22);
    local.writeUInt16LE(name.length, 26);
    const cen = Buffer.alloc(46);
    cen.writeUInt32LE(0x02014b50, 0);
    cen.writeUInt16LE((3 << 8) | 20, 4);
    cen.writeUInt16LE(20, 6);
    cen.writeUInt16LE(e.flags ?? 0, 8);
    cen.writeUInt16LE(e.deflate ? 8 : 0, 10);
    cen.writeUInt32LE(crc32(data), 16);
    cen.writeUInt32LE(body.length, 20);
    cen.writeUInt32LE(usize, 24);
    cen.writeUInt16LE(name.length, 28);
    cen.writeUInt32LE(((e.mode ?? 0o100644) << 16) >>> 0, 38);
    cen.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    central.push(cen, name);
    offset += 30 + name.length + body.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

function refusal(buf: Buffer): { error: string; details?: unknown[] } {
  try {
    readAmpZip(buf);
  } catch (err) {
    const e = err as { statusCode: number; message: string; details?: unknown[] };
    expect(e.statusCode).toBe(422);
    return { error: e.message, details: e.details };
  }
  throw new Error('the archive was accepted');
}

describe('.amp zip reader (DESIGN §10): hostile archives are refused before anything is unpacked', () => {
  const ok = { name: 'manifest.json', data: Buffer.from('{"a":1}'), deflate: true };

  it('reads stored and deflated entries', () => {
    const files = readAmpZip(zip([ok, { name: 'media/a/b.png', data: Buffer.from('png') }]));
    expect([...files.keys()]).toEqual(['manifest.json', 'media/a/b.png']);
    expect(files.get('manifest.json')!.toString()).toBe('{"a":1}');
  });

  it.each([
    ['zip-slip', '../../etc/passwd', 'unsafe entry name'],
    ['zip-slip inside', 'media/../../x.png', 'unsafe entry name'],
    ['absolute name', '/etc/passwd', 'unsafe entry name'],
    ['drive name', 'C:/Windows/x.dll', 'unsafe entry name'],
    ['backslashes', 'media\\..\\x', 'unsafe entry name'],
    ['NUL byte', 'media/a\u0000.png', 'unsafe entry name'],
  ])('refuses a %s entry', (_what, name, why) => {
    const r = refusal(zip([ok, { name, data: Buffer.from('x') }]));
    expect(r.error).toBe(MSG.templateParts.invalidAmp);
    expect(String(r.details?.[0])).toContain(why);
  });

  it('refuses symlink entries', () => {
    const r = refusal(zip([ok, { name: 'media/link', data: Buffer.from('/etc/passwd'), mode: 0o120777 }]));
    expect(String(r.details?.[0])).toContain('link entry');
  });

  it('refuses a 10 GB declared size without inflating anything', () => {
    const r = refusal(zip([ok, { name: 'media/big.png', data: Buffer.from('x'), usize: 0xfffffffe }]));
    expect(String(r.details?.[0])).toContain('too large');
  });

  it('refuses a zip bomb (a tiny entry that unpacks to many megabytes)', () => {
    const bomb = { name: 'event.json', data: Buffer.alloc(15 * 1024 * 1024, 0x20), deflate: true };
    const r = refusal(zip([ok, bomb]));
    expect(String(r.details?.[0])).toContain('compressed too much');
    // A bomb that lies about its size is stopped at the declared size.
    const liar = refusal(zip([ok, { ...bomb, data: Buffer.alloc(200_000, 0x20), usize: 1000 }]));
    expect(String(liar.details?.[0])).toMatch(/compressed too much|declared size/);
  });

  it('refuses encrypted, corrupt and non-zip input', () => {
    expect(String(refusal(zip([{ ...ok, flags: 1 }])).details?.[0])).toContain('encrypted');
    const corrupt = zip([{ name: 'event.json', data: Buffer.from('{"x":1}') }]);
    corrupt[30 + 'event.json'.length] ^= 0xff;
    expect(String(refusal(corrupt).details?.[0])).toContain('corrupt');
    expect(String(refusal(Buffer.from('just text, not a zip at all')).details?.[0])).toContain('not a zip');
  });

  it('accepts plain relative names only', () => {
    expect(isSafeEntryName('media/stadiumcam/overlays/a.png')).toBe(true);
    expect(isSafeEntryName('media/dir/')).toBe(true);
    expect(isSafeEntryName('media//a')).toBe(false);
    expect(isSafeEntryName('./a')).toBe(false);
  });
});
