import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG, attendeeRoutes } from '@stadiumcam/contract';
import { seatPixel, venueMapFile, viewOfSeat, viewRect } from '../apps/venue-sim/src/index.ts';
import { ADMIN_PASSWORD, startStack, type Stack } from './fixtures/stack.ts';

const ADMIN = { username: 'admin', password: ADMIN_PASSWORD };

/** Polls until `check` holds; no fixed sleeps. */
async function until<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  what: string,
  ms = 20_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('mapping and camera configuration screens', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ simulator: { camerasPerHost: 2, attendeeRate: 0, turnMs: 2000, fps: 3 } });
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
  });

  it('Mapping config: the simulator’s files are listed, an uploaded map file is parsed into the tables', async () => {
    const { page } = await stack.newPage({ login: ADMIN, path: '/config/mapping' });
    await page.getByTestId('config-files').getByText('row_dict.txt').waitFor();
    await page.getByTestId('parsed-file').getByRole('cell', { name: '101', exact: true }).first().waitFor();
    await page.getByTestId('parsed-info').getByRole('cell', { name: 'cam2', exact: true }).waitFor();
    await stack.screenshot(page, 'mapping-config');

    // A technician re-uploads cam2's map with one more section of boxes.
    const file = venueMapFile(2, 2);
    file.sections.push({ ...file.sections[0], name: 'B7', type: 'box' });
    const local = path.join(os.tmpdir(), 'cam2.json');
    await writeFile(local, JSON.stringify(file));
    await page.getByTestId('config-dropzone').locator('input[type=file]').setInputFiles(local);
    await page.getByTestId('upload-status').getByText('pending').waitFor();
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByTestId('upload-status').getByText('uploaded').waitFor();
    await page.getByText(MSG.mapping.filesUploaded(1)).waitFor();
    await page.getByText(MSG.mapping.configUpdated).waitFor();
    await page.getByTestId('parsed-info').getByRole('cell', { name: '1', exact: true }).first().waitFor();
    expect(stack.app.deps.seatMap.current.cameras[1].sections.some((s) => s.name === 'B7')).toBe(true);

    // A broken file is refused with its reason and changes nothing.
    const bad = path.join(os.tmpdir(), 'cam1.json');
    await writeFile(bad, '{ not json');
    await page.getByTestId('config-dropzone').locator('input[type=file]').setInputFiles(bad);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByText(MSG.mapping.invalidJson).waitFor();
    await page.getByText(MSG.mapping.filesFailed(1)).waitFor();
    await page.getByTestId('coverage').waitFor();
    await stack.screenshot(page, 'mapping-config-coverage');
  });

  it('Camera Configs: a changed setting reaches the simulated host', async () => {
    const { page } = await stack.newPage({ login: ADMIN, path: '/config/camera' });
    await page.getByText('General Settings').waitFor();
    await stack.screenshot(page, 'camera-configs');
    const cell = page.getByTestId('cfg-cam1-jpegQuality').locator('input');
    await page
      .getByTestId('device-cam1')
      .getByText(/Venue simulator/)
      .waitFor();
    await cell.fill('75');
    await page.getByTestId('submit-cam1').click();
    await page.getByText(MSG.mapping.cameraUpdated('cam1')).waitFor();
    const cam1 = stack.venue!.hosts[0].cameras.get('cam1')!;
    expect(cam1.settings.jpegQuality).toBe(75);
    // Out of bounds: the widget holds the value to its bounds (the server refuses it too: mapping-venue.test.ts).
    await cell.fill('500');
    await cell.press('Tab');
    expect(await cell.inputValue()).toBe('90');
    await stack.screenshot(page, 'camera-configs');
  });

  it('Mapping tool: WASD moves the camera; a saved region sends a fan there to that camera', async () => {
    const { page } = await stack.newPage({ login: ADMIN, path: '/mapping' });
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.getByTestId('stream-cam1').and(page.locator('[data-live=true]')).waitFor();
    const position = page.getByTestId('tool-position');
    await position.getByText('Pan 0').waitFor();
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.down('d');
    const cam1 = stack.venue!.hosts[0].cameras.get('cam1')!;
    await until(() => cam1.position().split(',')[0] !== '0', 'the camera to pan');
    await page.keyboard.up('d');
    // Track on Move reads the position 750 ms after the release.
    await until(async () => !(await position.innerText()).startsWith('Pan 0 '), 'the new position');
    const text = await position.innerText();
    expect(Number(/Pan (-?\d+)/.exec(text)![1])).toBeGreaterThan(0);
    await stack.screenshot(page, 'mapping-tool');

    // A single-seat box region of cam1 for seat 216 A-3 (relative to cam1's reference).
    const ref = stack.app.deps.seatMap.current.cameras[0].refPoint;
    const seat = { section: '216', row: 'A', seat: '3' };
    const v = viewOfSeat(seat)!;
    await page.getByLabel('Type', { exact: true }).fill('Box ');
    await page.getByLabel('Name', { exact: true }).fill(' 216');
    await page.getByLabel('Region type', { exact: true }).first().click();
    await page.getByRole('option', { name: 'singleSeat' }).click();
    await page.getByLabel('Top Left row').fill('a');
    await page.getByLabel('Top Left seat').fill('3');
    await page.getByLabel('Top Left pan').fill(String(v.pan - ref.pan));
    await page.getByLabel('Top Left tilt').fill(String(v.tilt - ref.tilt));
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Region saved').waitFor();
    // The form is cleared after a save.
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('');

    const { slugDate } = (await (await fetch(`${stack.url}${attendeeRoutes.event.path}`)).json()) as {
      slugDate: string;
    };
    const join = await fetch(`${stack.url}${attendeeRoutes.joinQueue.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ slugDate, userId: 'fan-box-216', seat: { seatType: 'box', ...seat } }),
    });
    expect(await join.json()).toMatchObject({ camera: 'cam1' });
    await until(() => cam1.current?.userId === 'fan-box-216', 'the fan’s turn on cam1');
    expect({ pan: cam1.view.pan, tilt: cam1.view.tilt }).toEqual({ pan: v.pan, tilt: v.tilt });
    // The rendered frame has the fan's seat in view (and ringed, being the current attendee).
    const r = viewRect(cam1.view);
    const p = seatPixel(seat)!;
    expect(p.x > r.left && p.x < r.left + r.width && p.y > r.top && p.y < r.top + r.height).toBe(true);
    await page.getByTestId('stream-cam1').waitFor();
    await stack.screenshot(page, 'mapping-tool-region');
    // …and the photo of that seat comes from cam1.
    await until(() => stack.venue!.hosts[0].uploads > 0 || undefined, 'the photo upload', 30_000);
  });
});
