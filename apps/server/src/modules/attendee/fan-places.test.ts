import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Deps } from '../../deps.ts';
import { fanPlaces } from './fan-places.ts';

/** One instance without Redis: the places live in this process's memory. */
const memoryDeps = () => ({ cluster: { redis: null, key: (k: string) => k } }) as unknown as Deps;

describe('fan places in memory (one instance)', () => {
  afterEach(() => vi.useRealTimers());

  it('keeps a place an hour, and drops expired places as new fans join (no filling to the cap)', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-28T18:00:00Z'), toFake: ['Date'] });
    const places = fanPlaces(memoryDeps());
    for (let i = 0; i < 1000; i++) await places.setPlace(`early-${i}`, 'cam1');
    vi.setSystemTime(new Date('2026-11-28T18:59:00Z'));
    await places.setPlace('later', 'cam2');
    expect(await places.placeOf('early-0')).toBe('cam1');
    expect(places.held!()).toBe(1001);
    // Past the hour: the early fans' places are gone from memory with the next join.
    vi.setSystemTime(new Date('2026-11-28T19:00:01Z'));
    expect(await places.placeOf('early-0')).toBeNull();
    await places.setPlace('late', 'cam3');
    expect(places.held!()).toBe(2);
    expect([await places.placeOf('later'), await places.placeOf('late')]).toEqual(['cam2', 'cam3']);
  });

  it('a fan joining again moves to the back: its place lasts an hour from its last join', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-28T18:00:00Z'), toFake: ['Date'] });
    const places = fanPlaces(memoryDeps());
    await places.setPlace('a', 'cam1');
    await places.setPlace('b', 'cam1');
    vi.setSystemTime(new Date('2026-11-28T18:30:00Z'));
    await places.setPlace('a', 'cam2');
    vi.setSystemTime(new Date('2026-11-28T19:10:00Z'));
    await places.setPlace('c', 'cam1');
    expect([await places.placeOf('a'), await places.placeOf('b'), places.held!()]).toEqual(['cam2', null, 2]);
  });

  it('one join of a fan at a time', async () => {
    const places = fanPlaces(memoryDeps());
    const release = await places.lock('a');
    expect(release).not.toBeNull();
    expect(await places.lock('a')).toBeNull();
    await release!();
    expect(await places.lock('a')).not.toBeNull();
  });
});
