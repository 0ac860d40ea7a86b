import { describe, expect, it } from 'vitest';
import { HostCamera, type Shot } from './camera.ts';
import type { CameraDriver, Ptz, Still } from './driver.ts';
import { CameraSettings, fpsConfig, roverModeConfig } from './settings.ts';

/** A driver that moves at once and photographs on demand (what the venue simulator's does). */
const instantDriver = (): CameraDriver => {
  let at: Ptz = { pan: 0, tilt: 0, zoom: 0 };
  const moveTo = async (to: Ptz) => void (at = to);
  return {
    canMove: true,
    aim: moveTo,
    settled: async () => undefined,
    relative: async (by) => moveTo({ pan: at.pan + by.pan, tilt: at.tilt + by.tilt, zoom: at.zoom + by.zoom }),
    continuous: async () => undefined,
    stop: async () => undefined,
    home: () => moveTo({ pan: 0, tilt: 0, zoom: 0 }),
    position: async () => at,
    still: async (): Promise<Still> => ({ jpeg: Buffer.from([0xff, 0xd8, 0xff]) }),
    frame: async () => Buffer.alloc(0),
  };
};

const waitUntil = async (ok: () => boolean) => {
  for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(ok()).toBe(true);
};

describe('a camera past the server’s photo ceiling', () => {
  it('takes the next photo only once the last upload is answered, and keeps its fans queued meanwhile', async () => {
    const taken: string[] = [];
    const answers: (() => void)[] = [];
    let queue: string[] = [];
    const cam = new HostCamera(
      'cam1',
      instantDriver(),
      {
        report: (r) => void (r.queue && (queue = r.queue)),
        taking: (userId) => taken.push(userId),
        // The server holds every upload (busy: the host sends it again later) until the test answers.
        photograph: (_shot: Shot, still) => still.then(() => new Promise<void>((r) => answers.push(r))),
        log: () => undefined,
      },
      10,
      'on',
      new CameraSettings([fpsConfig(5), roverModeConfig()]),
    );
    const seat = { seatType: 'section', section: '1', row: 'A', seat: '1' };
    for (const userId of ['a', 'b', 'c']) cam.join({ userId, slugDate: 'e', seat, heldUntil: 0 });
    await waitUntil(() => taken.length === 1 && answers.length === 1);
    // b's turn ran out, but its photo waits for a's upload: b and c keep their places.
    await new Promise((r) => setTimeout(r, 100));
    expect(taken).toEqual(['a']);
    expect(queue).toEqual(['b', 'c']);
    answers[0]();
    await waitUntil(() => taken.length === 2);
    expect(taken).toEqual(['a', 'b']);
    answers[1]();
    await waitUntil(() => taken.length === 3);
    answers[2]();
    cam.stop();
  });
});
