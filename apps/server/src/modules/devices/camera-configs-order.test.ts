import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { cameraConfigsRoutes, type CameraWithConfigs } from '@stadiumcam/contract';
import { describeEachDb } from '../../test/harness.ts';
import { SocketPool, listenUrl } from '../../test/realtime.ts';

describeEachDb('camera configs reports are stored in the order a host sends them', (t) => {
  let url = '';
  const pool = new SocketPool(() => url);
  beforeAll(async () => {
    url = await listenUrl(t());
  });
  afterAll(() => pool.closeAll());

  it('the last of many reports sent back to back is the one kept (an earlier one never overwrites it)', async () => {
    const host = await pool.host(`order-${t().kind}`, [{ camera: 'cam7' }]);
    const report = (state: string) => ({
      camera: 'cam7',
      configs: [{ configKey: 'host.state', configValue: state, widgetType: 'TEXT' as const, min: 1, max: 200 }],
    });
    for (let i = 0; i < 40; i++) host.emit('camera configs', report(`state ${i}`));
    const stored = async () =>
      ((await t().call(cameraConfigsRoutes.list, { cookie: await t().adminCookie() })).body as CameraWithConfigs[])
        .find((c) => c.cameraKey === 'cam7')
        ?.configs.find((c) => c.configKey === 'host.state')?.configValue;
    await vi.waitFor(async () => expect(await stored()).toBe('state 39'), { timeout: 10_000, interval: 100 });
    // A marker sent after the burst lands after every write of the burst: then the value is final.
    host.emit('camera configs', report('final'));
    await vi.waitFor(async () => expect(await stored()).toBe('final'), { timeout: 10_000, interval: 100 });
  });
});
