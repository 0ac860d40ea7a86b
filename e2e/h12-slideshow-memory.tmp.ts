// Temporary measurement script (issue 12): slideshow memory with 2,000 favourites. Not a test.
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { events } from '../apps/server/src/db/schema/index.ts';
import { putMedia } from '../apps/server/src/media/media-store.ts';
import { insertSnapshot } from '../apps/server/src/modules/snapshots/snapshots.repository.ts';
import { SLIDESHOW_DEFAULTS } from '@stadiumcam/contract';
import { startStack } from './fixtures/stack.ts';

const MINUTES = Number(process.env.MINUTES ?? 6);
const INTERVAL = Number(process.env.INTERVAL_MS ?? 1000);
const stack = await startStack();
const colours = Array.from({ length: 16 }, (_, i) => `hsl(${i * 22}, 70%, 45%)`);
const jpegs = await Promise.all(
  colours.map((c) => sharp({ create: { width: 1600, height: 1200, channels: 3, background: c } }).jpeg().toBuffer()),
);
for (let i = 0; i < 2000; i++) {
  const id = randomUUID();
  const url = await putMedia(stack.config.mediaDir, `stadiumcam/${id}/raw.jpg`, jpegs[i % jpegs.length]);
  await insertSnapshot(stack.app.deps.db, {
    id, slug: 'stadiumcam', slugDate: 'stadiumcam', userId: `fan-${i}`, camera: 'cam1', section: '101', row: 'A',
    seat: String(i), thumbUri: url, smallUri: url, rawCroppedUri: url, sharedUri: url, favorite: true,
  } as never);
}
await stack.app.deps.db.update(events).set({ config: { slideshow: { ...SLIDESHOW_DEFAULTS, transitionTime: INTERVAL, transitionDuration: 400 } } } as never);
const { page } = await stack.newPage({ path: '/slideshow', viewport: { width: 1920, height: 1080 } });
await page.getByTestId('slideshow').waitFor();
const cdp = await page.context().newCDPSession(page);
await cdp.send('Performance.enable');
const sample = async () => {
  await cdp.send('HeapProfiler.collectGarbage');
  const { metrics } = await cdp.send('Performance.getMetrics');
  const m = Object.fromEntries(metrics.map((x: { name: string; value: number }) => [x.name, x.value]));
  return { heapMB: +(m.JSHeapUsedSize / 1048576).toFixed(1), nodes: m.Nodes, listeners: m.JSEventListeners };
};
const start = Date.now();
const rows: string[] = [];
for (;;) {
  const s = await sample();
  const t = Math.round((Date.now() - start) / 1000);
  const line = `t=${t}s heap=${s.heapMB}MB nodes=${s.nodes} listeners=${s.listeners}`;
  rows.push(line);
  console.log(line);
  if (t >= MINUTES * 60) break;
  await new Promise((r) => setTimeout(r, 30_000));
}
await stack.close();
process.exit(0);
