import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PAN_LIMIT, TILT_LIMIT, uploadVenueMap } from '../apps/venue-sim/src/index.ts';
import { ensureTodayEventLive } from '../apps/server/src/modules/events/events.service.ts';
import { parseConfig } from '../apps/onvif-host/src/config.ts';
import { OnvifHost } from '../apps/onvif-host/src/host.ts';
import { OnvifEmulator } from '../apps/onvif-host/src/test/onvif-emulator.ts';
import { ADMIN_PASSWORD, startStack, type Stack } from './fixtures/stack.ts';

const ADMIN = { username: 'admin', password: ADMIN_PASSWORD };

/*
 * The console with real-camera plumbing: the server, the ONVIF host and two emulated ONVIF
 * cameras (docs/cameras-onvif.md). The monitor shows both live; the mapping tool's W/A/S/D is a
 * ContinuousMove then a Stop on the camera, and the tool shows the camera's own position.
 */
describe('ONVIF cameras in the console', () => {
  let stack: Stack;
  let host: OnvifHost;
  const cams: OnvifEmulator[] = [];

  beforeAll(async () => {
    stack = await startStack();
    await ensureTodayEventLive(stack.app.deps);
    for (const name of ['cam1', 'cam2']) cams.push(await new OnvifEmulator({ name, password: `pw-${name}` }).start());
    const ranges = { pan: [-PAN_LIMIT, PAN_LIMIT], tilt: [-TILT_LIMIT, TILT_LIMIT] };
    host = new OnvifHost(
      parseConfig(
        {
          server: stack.url,
          hostId: 'onvif-e2e',
          cameras: cams.map((c, i) => ({
            id: `cam${i + 1}`,
            url: c.url,
            username: 'admin',
            passwordEnv: `CAM${i + 1}_PW`,
            ranges,
          })),
        },
        { DEVICE_TOKEN: stack.config.deviceToken, CAM1_PW: 'pw-cam1', CAM2_PW: 'pw-cam2' },
      ),
      { info: () => {}, warn: () => {} },
    );
    await host.ready;
    await vi.waitFor(() => expect([...host.cameras.values()].map((c) => c.status)).toEqual(['on', 'on']), {
      timeout: 20_000,
    });
    await uploadVenueMap({
      serverUrl: stack.url,
      technician: ADMIN,
      cameras: 2,
      log: { info: () => {}, warn: () => {} },
    });
  }, 120_000);
  afterAll(async () => {
    await host?.stop();
    await stack?.close();
    await Promise.all(cams.map((c) => c.stop()));
  });

  it('the monitor shows both ONVIF cameras live', async () => {
    const { page, context } = await stack.newPage({ login: ADMIN, path: '/monitor' });
    for (const c of ['cam1', 'cam2']) await page.locator(`[data-testid="stream-${c}"][data-live="true"]`).waitFor();
    await stack.screenshot(page, 'onvif-monitor');
    await context.close();
  });

  it('the mapping tool: holding D is a ContinuousMove, releasing it a Stop, and the tool shows the camera’s position', async () => {
    const { page, context } = await stack.newPage({ login: ADMIN, path: '/mapping' });
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.getByTestId('stream-cam1').and(page.locator('[data-live=true]')).waitFor();
    const position = page.getByTestId('tool-position');
    await position.getByText('Pan 0').waitFor();
    const before = cams[0].calls.length;
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.down('d');
    await vi.waitFor(() => expect(cams[0].calls.slice(before).map((c) => c.action)).toContain('ContinuousMove'));
    await page.keyboard.up('d');
    await vi.waitFor(() => expect(cams[0].calls.slice(before).map((c) => c.action)).toContain('Stop'));
    const moves = cams[0].calls.slice(before).filter((c) => c.action === 'ContinuousMove' || c.action === 'Stop');
    expect(moves[0].action).toBe('ContinuousMove');
    expect(moves[0].position!.x).toBeGreaterThan(0);
    expect(moves.at(-1)!.action).toBe('Stop');
    // Track on Move reads the camera 750 ms after the release: the emulated camera's own position.
    const pan = Math.round(cams[0].now().x * PAN_LIMIT);
    expect(pan).toBeGreaterThan(0);
    await position.getByText(new RegExp(`^Pan ${pan}\\b`)).waitFor();
    await context.close();
  });
});
