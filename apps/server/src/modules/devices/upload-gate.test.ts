import { describe, expect, it } from 'vitest';
import { UploadGate } from './upload-gate.ts';

describe('the upload gate (issue 30 §5b: the event loop as the ceiling)', () => {
  it('lets a quiet server take uploads at once, and estimates the wait from how fast the recent ones ended', () => {
    let now = 0;
    const gate = new UploadGate(() => now);
    const open = Array.from({ length: 7 }, () => gate.enter());
    expect(gate.waitMs()).toBe(0);
    // 20 ended in the last 5 s (4 a second); 7 + 13 in flight wait about 20 / 4 s.
    for (let i = 0; i < 20; i++) {
      now += 250;
      gate.enter()();
    }
    const more = Array.from({ length: 13 }, () => gate.enter());
    expect(gate.waitMs()).toBe(5_000);
    // Ending twice counts once: 19 in flight, 21 ended in the window.
    const leave = more.pop()!;
    leave();
    leave();
    expect(gate.waitMs()).toBe(Math.floor(19 / (21 / 5_000)));
    for (const l of [...open, ...more]) l();
    expect(gate.waitMs()).toBe(0);
  });

  it('takes a burst on a server with no recent rate, and reads uploads stuck for a whole window as stalled', () => {
    let now = 0;
    const gate = new UploadGate(() => now);
    for (let i = 0; i < 20; i++) gate.enter();
    expect(gate.waitMs()).toBe(0);
    now += 5_001;
    expect(gate.waitMs()).toBe(Infinity);
  });
});
