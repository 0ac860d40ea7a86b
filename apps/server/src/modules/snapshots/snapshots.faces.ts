import { FACE_CONFIDENCE_THRESHOLD } from '@stadiumcam/contract';

/*
 * Domain rules deriving a photo's plain columns from its face data and its shares (no queries):
 * insertSnapshot (snapshots.repository.ts) fills them, so the album filters on indexed columns.
 */

type FaceLike = {
  AgeRange?: { Low?: number; High?: number };
  Gender?: { Value?: string; Confidence?: number };
  Emotions?: { Type?: string; Confidence?: number }[];
};

/**
 * The plain columns the album filters on, derived from the whole face list. Genders and
 * emotions count for a photo only above the spec's confidence threshold (spec 1 §5).
 */
export function summariseFaces(faces: unknown[] | null | undefined) {
  // No face data: unknown. An empty list: analysed, nobody in the picture (group size 0).
  if (!faces) return { groupSize: null, ageMin: null, ageMax: null, genders: null, emotions: [] };
  const list = faces as FaceLike[];
  const confident = (c: number | undefined) => (c ?? 0) > FACE_CONFIDENCE_THRESHOLD;
  const lows = list.map((f) => f.AgeRange?.Low).filter((n): n is number => typeof n === 'number');
  const highs = list.map((f) => f.AgeRange?.High).filter((n): n is number => typeof n === 'number');
  const genders = new Set(
    list
      .filter((f) => confident(f.Gender?.Confidence))
      .map((f) => f.Gender?.Value)
      .filter((g) => g === 'Female' || g === 'Male'),
  );
  const emotions = new Set<string>();
  for (const f of list)
    for (const e of f.Emotions ?? []) if (e.Type && confident(e.Confidence)) emotions.add(e.Type.toLowerCase());
  return {
    groupSize: list.length,
    ageMin: lows.length ? Math.min(...lows) : null,
    ageMax: highs.length ? Math.max(...highs) : null,
    genders: genders.size === 2 ? 'Both' : genders.size === 1 ? [...genders][0] : null,
    emotions: [...emotions].sort(),
  };
}

/** Share columns kept in step with postObj so the shared tab and platform filter use indexes. */
export function shareColumns(postObj: { socialSource: string }[]) {
  return {
    sharedCount: postObj.length,
    shareSources: [...new Set(postObj.map((p) => p.socialSource))].sort(),
  };
}
