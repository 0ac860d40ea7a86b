import { describe, expect, it } from 'vitest';
import { MAX_OVERLAYS, emptyOverlaySlots, overlayLabel } from '@stadiumcam/contract';

describe('overlays screen rules (spec 2 §2, §4, §9)', () => {
  it('empty add-slots: 3 minus the current count while under 3, otherwise one while under 7', () => {
    expect(MAX_OVERLAYS).toBe(7);
    expect(Array.from({ length: 8 }, (_, n) => emptyOverlaySlots(n))).toEqual([3, 2, 1, 1, 1, 1, 1, 0]);
    // The spec's sentence, count by count.
    for (let n = 0; n <= 7; n++) expect(emptyOverlaySlots(n), `${n}`).toBe(n < 3 ? 3 - n : n < 7 ? 1 : 0);
  });

  it('other screens name an overlay by its file name, without the folder and the .png (issue 28 point 5)', () => {
    expect(overlayLabel('stadiumcam/overlays/demo-classic.png')).toBe('demo-classic');
    expect(overlayLabel('stadiumcam-2026-11-26/overlays/mwx2tfhya51cd5.png')).toBe('mwx2tfhya51cd5');
    expect(overlayLabel('short.png')).toBe('short');
    // A key that is only a folder keeps the key rather than an empty name.
    expect(overlayLabel('stadiumcam/overlays/.png')).toBe('stadiumcam/overlays/.png');
  });
});
