import { describe, expect, it } from 'vitest';
import { MAX_OVERLAYS, emptyOverlaySlots, overlayLabel } from '@stadiumcam/contract';

describe('overlays screen rules (spec 2 §2, §4, §9)', () => {
  it('empty add-slots: 3 minus the current count while under 3, otherwise one while under 7', () => {
    expect(MAX_OVERLAYS).toBe(7);
    expect(Array.from({ length: 8 }, (_, n) => emptyOverlaySlots(n))).toEqual([3, 2, 1, 1, 1, 1, 1, 0]);
    // The spec's sentence, count by count.
    for (let n = 0; n <= 7; n++) expect(emptyOverlaySlots(n), `${n}`).toBe(n < 3 ? 3 - n : n < 7 ? 1 : 0);
  });

  it('other screens label an overlay by the last 12 characters of its storage key', () => {
    expect(overlayLabel('stadiumcam-2026-11-26/overlays/mwx2tfhya51cd5.png')).toBe('hya51cd5.png');
    expect(overlayLabel('short.png')).toBe('short.png');
  });
});
