import { expect, it } from 'vitest';
import { MSG } from '@stadiumcam/contract';
import { DEVICE_TOKEN, describeEachDb } from '../test/harness.ts';
import { listenUrl } from '../test/realtime.ts';

/** Small files, so no byte limit is near: only their number is wrong. */
const form = (field: string, files: number, extra: Record<string, string> = {}) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(extra)) f.append(k, v);
  for (let i = 0; i < files; i++)
    f.append(field, new Blob([Buffer.from(`file ${i}`)], { type: 'image/png' }), `f${i}.png`);
  return f;
};

describeEachDb('multipart readers: too many files (issue 27 §10)', (t) => {
  it('answers too many files with 400 and its own text on every reader, never "larger than"', async () => {
    const url = await listenUrl(t());
    const cookie = await t().adminCookie();
    const post = async (path: string, body: FormData, headers: Record<string, string> = { cookie, origin: url }) => {
      const res = await fetch(`${url}${path}`, { method: 'POST', headers, body });
      return { status: res.status, body: (await res.json()) as { error: string } };
    };
    const single = { status: 400, body: { error: MSG.templateImages.singleFile } };
    // Template images, overlays, the .amp import: one file each.
    expect(await post('/api/events/stadiumcam/images/seo', form('image', 2))).toEqual(single);
    expect(await post('/api/events/stadiumcam/overlays/upload', form('image', 2))).toEqual(single);
    expect(await post('/api/events/import', form('file', 2, { eventIds: '["x"]' }))).toEqual(single);
    // Map files: up to 50 at once.
    expect(await post('/api/events/configs/camAndRowDict', form('file', 51))).toEqual({
      status: 400,
      body: { error: MSG.media.tooManyFiles(50) },
    });
    // A camera host's photo: one image.
    expect(
      await post('/api/devices/snapshots', form('image', 2, { metadata: '{}' }), {
        authorization: `Bearer ${DEVICE_TOKEN}`,
      }),
    ).toEqual(single);
  });
});
