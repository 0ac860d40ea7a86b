import { randomUUID } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import sharp from 'sharp';
import {
  AMP_FORMAT,
  AMP_FORMAT_VERSION,
  MSG,
  defaultLanguageTable,
  eventsRoutes,
  mappingRoutes,
} from '@stadiumcam/contract';
import { venueMapFile, venueRowDict } from '@stadiumcam/venue-sim';
import { events } from '../db/schema/index.ts';
import { describeEachDb } from '../test/harness.ts';
import { SocketPool, ask, listenUrl } from '../test/realtime.ts';

/** A zip of stored (uncompressed) entries, as small as an .amp can be. */
function storedZip(entries: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [entryName, text] of Object.entries(entries)) {
    const data = Buffer.from(text);
    const name = Buffer.from(entryName);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc32(data), 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const cen = Buffer.alloc(46);
    cen.writeUInt32LE(0x02014b50, 0);
    cen.writeUInt16LE((3 << 8) | 20, 4);
    cen.writeUInt16LE(20, 6);
    cen.writeUInt32LE(crc32(data), 16);
    cen.writeUInt32LE(data.length, 20);
    cen.writeUInt32LE(data.length, 24);
    cen.writeUInt16LE(name.length, 28);
    cen.writeUInt32LE((0o100644 << 16) >>> 0, 38);
    cen.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    central.push(cen, name);
    offset += 30 + name.length + data.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(central.length / 2, 8);
  end.writeUInt16LE(central.length / 2, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** An .amp with no media: the manifest (overridable) and these event parts. */
const amp = (parts: Record<string, unknown>, manifest: Record<string, unknown> = {}) =>
  storedZip({
    'manifest.json': JSON.stringify({
      format: AMP_FORMAT,
      formatVersion: AMP_FORMAT_VERSION,
      appVersion: '0.1.0',
      exportedAt: new Date().toISOString(),
      slugDate: 'stadiumcam',
      options: { triviaEnabled: false, disabledEventFields: [] },
      media: [],
      ...manifest,
    }),
    'event.json': JSON.stringify(parts),
  });

// Issue 16 §10: NUL and bidi overrides are refused wherever input enters, not only in JSON
// bodies: multipart fields and file names, the JSON inside an uploaded .amp, console commands.
describeEachDb('forbidden characters in uploads and socket commands', (t) => {
  let url = '';
  let cookie = '';
  const pool = new SocketPool(() => url);
  const targetId = randomUUID();
  const targetSlug = 'stadiumcam-2031-06-01';
  const send = async (path: string, form: FormData) => {
    const res = await fetch(`${url}${path}`, { method: 'POST', headers: { cookie, origin: url }, body: form });
    return { status: res.status, body: (await res.json().catch(() => undefined)) as any };
  };
  const importAmp = (file: Buffer, eventIds = JSON.stringify([targetId])) => {
    const form = new FormData();
    form.append('eventIds', eventIds);
    form.append('file', new Blob([file], { type: 'application/octet-stream' }), 'x.amp');
    return send('/api/events/import', form);
  };
  const target = async () => (await t().call(eventsRoutes.get, { cookie, params: { slugDate: targetSlug } })).body;

  beforeAll(async () => {
    url = await listenUrl(t());
    cookie = await t().adminCookie();
    await t().app.deps.db.insert(events).values({
      id: targetId,
      slug: 'stadiumcam',
      slugDate: targetSlug,
      title: 'Target',
      gameDate: '2031-06-01',
      timezone: 'America/Winnipeg',
      config: {},
    });
  });
  afterAll(() => pool.closeAll());

  it('answers 400 to a NUL or a bidi override in a multipart field or file name, and changes nothing', async () => {
    const before = await target();
    const refused = { status: 400, body: { error: MSG.security.forbiddenChars } };
    const good = amp({ languages: { en: { title: 'Imported' } } });
    expect(await importAmp(good, JSON.stringify([`${targetId}\u0000`]))).toMatchObject(refused);
    expect(await importAmp(good, JSON.stringify([`${targetId}\u202E`]))).toMatchObject(refused);
    expect(await importAmp(good, `["${targetId}"]\u0000`)).toMatchObject(refused);
    // A file name is input too (here the mapping tool's upload and a template image).
    const map = new FormData();
    map.append('file', new Blob(['{}']), 'cam1\u202Enosj.json');
    expect(await send(mappingRoutes.upload.path, map)).toMatchObject(refused);
    const png = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#345' } })
      .png()
      .toBuffer();
    const image = new FormData();
    image.append('image', new Blob([png], { type: 'image/png' }), 'logo\u0000.png');
    expect(await send(`/api/events/${targetSlug}/images/logo`, image)).toMatchObject(refused);
    expect(await target()).toEqual(before);
  });

  it('answers 400 to a NUL or a bidi override in the JSON of an uploaded .amp, and changes nothing', async () => {
    const before = await target();
    const refused = { status: 400, body: { error: MSG.security.forbiddenChars } };
    // Parsed from the JSON escape: PostgreSQL's jsonb refuses \u0000 (a 500 before this rule).
    expect(await importAmp(amp({ languages: { en: { title: 'Home\u0000' } } }))).toMatchObject(refused);
    expect(await importAmp(amp({ languages: { ['ke\u0000y']: {} } }))).toMatchObject(refused);
    expect(await importAmp(amp({ languages: { en: { title: 'Home \u202Egnp.exe' } } }))).toMatchObject(refused);
    expect(await importAmp(amp({}, { slugDate: 'stadium\u0000cam' }))).toMatchObject(refused);
    expect(await target()).toEqual(before);
    // The same text without the character, in a languages part the screen takes, is taken.
    const languages = defaultLanguageTable();
    languages['meta.title'].texts.english = 'Home';
    const part = { languages, availableLanguages: ['english'], defaultLanguage: 'english' };
    expect(await importAmp(amp(part))).toMatchObject({ status: 200, body: { ok: true, eventIds: [targetId] } });
    expect((await target()).languages['meta.title'].texts.english).toBe('Home');
  });

  it('refuses a map file whose JSON carries a NUL or a bidi override with the rule text, and stores nothing', async () => {
    await pool.host(`map-host-${t().kind}`, [{ camera: 'cam1' }]);
    const dict = new FormData();
    dict.append('file', new Blob([venueRowDict()]), 'row_dict.txt');
    expect((await send(mappingRoutes.upload.path, dict)).status).toBe(200);
    const before = JSON.stringify(t().app.deps.seatMap.current);
    const withName = (name: string) => {
      const file = venueMapFile(1, 1);
      file.sections[0].name = name;
      return JSON.stringify(file);
    };
    for (const name of ['A\u0000', 'A\u202E']) {
      const form = new FormData();
      form.append('camidx', '1');
      form.append('file', new Blob([withName(name)]), 'cam1.json');
      expect(await send(mappingRoutes.uploadJson.path, form)).toMatchObject({
        status: 422,
        body: { error: MSG.security.forbiddenChars },
      });
      const batch = new FormData();
      batch.append('file', new Blob([withName(name)]), 'cam1.json');
      expect(await send(mappingRoutes.upload.path, batch)).toMatchObject({
        status: 200,
        body: { files: [{ name: 'cam1.json', success: false, error: MSG.security.forbiddenChars }] },
      });
    }
    expect(JSON.stringify(t().app.deps.seatMap.current)).toBe(before);
    expect((await t().call(mappingRoutes.list, { cookie })).body.files.map((f: { name: string }) => f.name)).toEqual([
      'row_dict.txt',
    ]);
  });

  it('refuses an .amp of another format version with the spec text (422), and changes nothing', async () => {
    const before = await target();
    for (const formatVersion of [AMP_FORMAT_VERSION + 1, 0, '1']) {
      const res = await importAmp(amp({ languages: { en: { title: 'Other version' } } }, { formatVersion }));
      expect(res).toMatchObject({ status: 422, body: { error: MSG.templateParts.invalidAmp } });
      expect(JSON.stringify(res.body)).toContain('Unsupported .amp format version');
    }
    expect(await target()).toEqual(before);
  });

  it('refuses a console command or a host event carrying a NUL or a bidi override, before it reaches anything', async () => {
    const host = await pool.host(`nul-host-${t().kind}`, [{ camera: 'cam7' }]);
    const toHost: unknown[] = [];
    host.on('ban', (p, ack) => {
      toHost.push(p);
      ack?.({ ok: true });
    });
    const console = await pool.console(cookie);
    for (const userId of ['fan\u0000', 'fan\u202E']) {
      expect(await ask(console, 'ban user', { userId })).toEqual({ ok: false, error: MSG.security.forbiddenChars });
      expect(t().app.deps.cameras.isBanned(userId)).toBe(false);
    }
    expect(await ask(console, 'select events', ['stadium\u0000cam'])).toEqual({
      ok: false,
      error: MSG.security.forbiddenChars,
    });
    // Camera hosts follow the rule too (what they send is stored: camera configs...).
    const bare = await pool.host(`nul-bare-${t().kind}`, null);
    expect(
      await bare.emitWithAck('hello', {
        name: 'Host\u0000',
        version: '0.1',
        ip: '10.0.0.9',
        cameras: [{ camera: 'cam8', status: 'on' }],
      }),
    ).toEqual({ ok: false, error: MSG.security.forbiddenChars });
    expect(t().app.deps.cameras.get('cam8')).toBeUndefined();
    // The same command without it still works (and reaches the host).
    expect(await ask(console, 'ban user', { userId: 'fan-clean' })).toEqual({ ok: true });
    await expect.poll(() => toHost).toEqual([{ userId: 'fan-clean' }]);
    expect(toHost).toHaveLength(1);
  });
});
