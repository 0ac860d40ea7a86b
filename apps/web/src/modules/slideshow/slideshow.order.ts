/**
 * Random order with no repeat until every slide has been shown (spec 3 §4). `shown` is this
 * round's ids; a reload keeps it, so new favourites join the current round.
 */
export function pickNext(
  ids: readonly string[],
  shown: ReadonlySet<string>,
  last: string | undefined,
  random: () => number = Math.random,
): { id: string | undefined; shown: Set<string> } {
  if (ids.length === 0) return { id: undefined, shown: new Set() };
  let round = new Set([...shown].filter((id) => ids.includes(id)));
  let left = ids.filter((id) => !round.has(id));
  if (left.length === 0) {
    // A new round; never the same slide twice in a row across the boundary.
    round = new Set();
    left = ids.length > 1 ? ids.filter((id) => id !== last) : [...ids];
  }
  const id = left[Math.min(left.length - 1, Math.floor(random() * left.length))];
  round.add(id);
  return { id, shown: round };
}

export const isVideo = (uri: string) => /\.mp4($|\?)/i.test(uri);
