import { describe, expect, it } from 'vitest';
import { isVideo, pickNext } from './slideshow.order.ts';

describe('slideshow order (spec 3 §4)', () => {
  it('shows every slide once per round, in a random order, and never one twice in a row', () => {
    const ids = ['a', 'b', 'c', 'd', 'e'];
    let shown = new Set<string>();
    let last: string | undefined;
    const seen: string[] = [];
    for (let i = 0; i < 15; i++) {
      const next = pickNext(ids, shown, last);
      expect(next.id).not.toBe(last);
      seen.push(next.id!);
      ({ shown } = next);
      last = next.id;
    }
    for (const round of [seen.slice(0, 5), seen.slice(5, 10), seen.slice(10, 15)]) {
      expect([...round].sort()).toEqual(ids);
    }
  });

  it('lets new favourites join the current round and forgets removed ones', () => {
    const first = pickNext(['a', 'b'], new Set(), undefined, () => 0);
    expect(first.id).toBe('a');
    const next = pickNext(['b', 'c'], first.shown, 'a', () => 0.99);
    expect(next.id).toBe('c');
    expect([...next.shown]).toEqual(['c']);
    expect(pickNext([], next.shown, 'c').id).toBeUndefined();
  });

  it('treats a URI ending in .mp4 as a video', () => {
    expect(isVideo('/media/x/clip.mp4')).toBe(true);
    expect(isVideo('/media/x/clip.MP4?v=2')).toBe(true);
    expect(isVideo('/media/x/photo.jpg')).toBe(false);
  });
});
