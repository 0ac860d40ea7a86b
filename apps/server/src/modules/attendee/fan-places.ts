import type { Deps } from '../../deps.ts';

/**
 * Where a fan last joined, and one join of a fan at a time (docs/security.md §18), on every
 * instance: in Redis with several instances, in memory alone. A host reports its queue a moment
 * after a join; until then the place recorded here keeps a second join from taking a second
 * place. While Redis is away joins go on without the lock (the reported queues still hold).
 */
export type FanPlaces = {
  /** Takes the fan's join lock; null when a join of this fan is under way. */
  lock: (fanId: string) => Promise<(() => Promise<void>) | null>;
  placeOf: (fanId: string) => Promise<string | null>;
  setPlace: (fanId: string, camera: string) => Promise<void>;
  /** Places kept in memory (without Redis, which expires its own). */
  held?: () => number;
};

const LOCK_MS = 15_000;
const PLACE_MS = 60 * 60_000;
const MAX_PLACES = 100_000;

const byApp = new WeakMap<Deps, FanPlaces>();

export function fanPlaces(deps: Deps): FanPlaces {
  let places = byApp.get(deps);
  if (!places) byApp.set(deps, (places = create(deps)));
  return places;
}

function create(deps: Deps): FanPlaces {
  const { redis, key } = deps.cluster;
  if (redis) {
    return {
      lock: async (fanId) => {
        const k = key(`fan-join:${fanId}`);
        const taken = await redis.set(k, '1', 'PX', LOCK_MS, 'NX').catch(() => 'OK');
        return taken === 'OK' ? async () => void (await redis.del(k).catch(() => 0)) : null;
      },
      placeOf: async (fanId) => redis.get(key(`fan-place:${fanId}`)).catch(() => null),
      setPlace: async (fanId, camera) =>
        void (await redis.set(key(`fan-place:${fanId}`), camera, 'PX', PLACE_MS).catch(() => null)),
    };
  }
  const joining = new Set<string>();
  const placed = new Map<string, { camera: string; until: number }>();
  return {
    lock: async (fanId) => {
      if (joining.has(fanId)) return null;
      joining.add(fanId);
      return async () => void joining.delete(fanId);
    },
    placeOf: async (fanId) => {
      const p = placed.get(fanId);
      return p && p.until > Date.now() ? p.camera : null;
    },
    setPlace: async (fanId, camera) => {
      // Oldest first: a Map keeps insertion order and every place lasts PLACE_MS, so the first
      // entries are the stalest. Expired ones go as new ones come (the map levels off at an
      // hour's fans instead of filling to its cap), and the oldest when it is full.
      placed.delete(fanId);
      const now = Date.now();
      for (const [id, p] of placed) {
        if (p.until > now && placed.size < MAX_PLACES) break;
        placed.delete(id);
      }
      placed.set(fanId, { camera, until: now + PLACE_MS });
    },
    held: () => placed.size,
  };
}
